/**
 * GET of a user-supplied media URL through the egress guard. Every hop (the first URL
 * and each redirect's Location) is vetted, and the connection goes only to the
 * addresses the guard vetted (pinned through `lookup`, so a DNS rebind between check
 * and connect has nothing to work with). One deadline bounds DNS, connects, redirects
 * and the whole body; the byte cap is enforced while the body streams in.
 * EgressRefusedError (EGRESS_REFUSED) propagates as is; every other failure is
 * MEDIA_FETCH_FAILED with the reason in `details`.
 */
import http from 'node:http';
import https from 'node:https';
import { DomainError } from '@cds/errors';
import { checkEgressUrl, EgressPolicy, EgressTarget, pinnedRequestOptions, Resolver, untilAborted } from '@cds/egress';
import { mediaFetchFailed } from './media-errors';
import { isRedirect, redirectTarget } from './media-redirect';

export interface MediaFetchOptions {
  /** Largest body accepted; a larger one is aborted as soon as it is announced or passed. */
  maxBytes: number;
  /** Bounds everything: DNS, connects, redirects and the whole body. */
  timeoutMs: number;
  /** Redirects followed (301, 302, 303, 307, 308); one more is MEDIA_FETCH_FAILED. */
  maxRedirects: number;
  egress: EgressPolicy;
  resolve?: Resolver;
}

export interface FetchedMedia {
  bytes: Buffer;
  /** The URL that answered with the body, after redirects. */
  finalUrl: string;
  /** As the server said; never trusted for the format (the bytes are sniffed). */
  contentType: string | null;
}

export const MEDIA_FETCH_HEADERS: Readonly<Record<string, string>> = {
  accept: 'image/*,video/*;q=0.9,*/*;q=0.5',
  'user-agent': 'cds-media-fetch/1',
  // The byte cap counts what is on the wire; a compressed body could hide its size.
  'accept-encoding': 'identity',
};

type Answer = { kind: 'body'; bytes: Buffer; contentType: string | null } | { kind: 'redirect'; location: string };

export async function fetchMedia(url: string, o: MediaFetchOptions): Promise<FetchedMedia> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), o.timeoutMs);
  try {
    let current = url;
    for (let redirects = 0; ; redirects++) {
      const target = await untilAborted(checkEgressUrl(current, { ...o.egress, resolve: o.resolve }), deadline.signal);
      if (target === undefined) throw timedOut(o);
      const answer = await get(target, o, deadline.signal);
      if (answer.kind === 'body') return { bytes: answer.bytes, finalUrl: target.url.href, contentType: answer.contentType };
      if (redirects >= o.maxRedirects) throw mediaFetchFailed(`too many redirects (more than ${o.maxRedirects})`);
      current = answer.location;
    }
  } finally {
    clearTimeout(timer);
  }
}

/** Options that reach a vetted address while the request still names the original host. */
export function mediaRequestOptions(target: EgressTarget): https.RequestOptions {
  return pinnedRequestOptions(target, 'GET', { ...MEDIA_FETCH_HEADERS });
}

function get(target: EgressTarget, o: MediaFetchOptions, signal: AbortSignal): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    const client = target.url.protocol === 'https:' ? https : http;
    const tooLarge = () => mediaFetchFailed(`larger than ${o.maxBytes} bytes`);
    const incomplete = () => mediaFetchFailed('connection closed before the body was complete');
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;

    const settle = (outcome: Answer | DomainError) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      req.destroy(); // also ends a body still streaming in
      if (outcome instanceof DomainError) reject(outcome);
      else resolve(outcome);
    };
    const onAbort = () => settle(timedOut(o));

    const req = client.request(mediaRequestOptions(target), (res) => {
      const status = res.statusCode ?? 0;
      res.on('error', () => settle(incomplete()));
      if (isRedirect(status)) {
        try {
          return settle({ kind: 'redirect', location: redirectTarget(status, res.headers.location, target.url) });
        } catch (err) {
          return settle(err as DomainError);
        }
      }
      if (status < 200 || status > 299) return settle(mediaFetchFailed(`status ${status}`));
      if (Number(res.headers['content-length']) > o.maxBytes) return settle(tooLarge());
      res.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > o.maxBytes) return settle(tooLarge());
        chunks.push(chunk);
      });
      res.on('end', () => settle({ kind: 'body', bytes: Buffer.concat(chunks, received), contentType: res.headers['content-type'] ?? null }));
      res.on('close', () => settle(incomplete()));
    });
    req.on('error', (err) => settle(mediaFetchFailed(`connection failed: ${err.message}`)));
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) return onAbort();
    req.end();
  });
}

function timedOut(o: MediaFetchOptions): DomainError {
  return mediaFetchFailed(`timed out after ${o.timeoutMs} ms`);
}
