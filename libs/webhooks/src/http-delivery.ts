/**
 * One outbound POST through the egress guard. It connects only to the addresses the
 * guard vetted (pinned through `lookup`, so a DNS rebind between check and connect has
 * nothing to work with), follows no redirect, and bounds both time and response size.
 * Failures are results, never throws: the caller records every attempt.
 */
import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { checkEgressUrl, EgressPolicy, EgressTarget, pinnedRequestOptions, Resolver, untilAborted } from '@cds/egress';

export interface DeliveryRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  /** Bounds everything: DNS, connect, request and the whole response. */
  timeoutMs: number;
  maxResponseBytes: number;
  egress: EgressPolicy;
  resolve?: Resolver;
}

export interface DeliveryResult {
  /** A 2xx answer, received in full or up to maxResponseBytes, within the timeout. */
  ok: boolean;
  status: number | null;
  durationMs: number;
  error: string | null;
  responseSnippet: string;
}

const INCOMPLETE = 'connection closed before the response was complete';

interface Exchange {
  status: number | null;
  body: Buffer;
  error: string | null;
}

export async function deliver(request: DeliveryRequest): Promise<DeliveryResult> {
  const startedAt = performance.now();
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), request.timeoutMs);
  const timedOut = `timed out after ${request.timeoutMs} ms`;
  const result = (exchange: Exchange): DeliveryResult => {
    const { status, body, error } = exchange;
    const ok = error === null && status !== null && status >= 200 && status < 300;
    return {
      ok,
      status,
      durationMs: Math.round(performance.now() - startedAt),
      error: ok ? null : (error ?? `receiver answered ${status}`),
      responseSnippet: body.toString('utf8'),
    };
  };
  try {
    const target = await untilAborted(checkEgressUrl(request.url, { ...request.egress, resolve: request.resolve }), deadline.signal);
    if (!target) return result({ status: null, body: Buffer.alloc(0), error: timedOut });
    return result(await post(target, request, deadline.signal, timedOut));
  } catch (err) {
    return result({ status: null, body: Buffer.alloc(0), error: (err as Error).message });
  } finally {
    clearTimeout(timer);
  }
}

/** Options that reach the vetted address while the request still names the original host. */
export function requestOptions(target: EgressTarget, request: Pick<DeliveryRequest, 'body' | 'headers'>): https.RequestOptions {
  return pinnedRequestOptions(target, 'POST', {
    'content-type': 'application/json',
    ...request.headers,
    'content-length': String(Buffer.byteLength(request.body)),
  });
}

function post(target: EgressTarget, request: DeliveryRequest, signal: AbortSignal, timedOut: string): Promise<Exchange> {
  return new Promise((resolve) => {
    const client = target.url.protocol === 'https:' ? https : http;
    const chunks: Buffer[] = [];
    let received = 0;
    let status: number | null = null;
    let settled = false;

    const finish = (error: string | null) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      req.destroy();
      resolve({ status, body: Buffer.concat(chunks), error });
    };
    const onAbort = () => finish(timedOut);

    const req = client.request(requestOptions(target, request), (res) => {
      status = res.statusCode ?? null;
      // The only way a response errors is the connection dropping before its end.
      res.on('error', () => finish(INCOMPLETE));
      if (status !== null && status >= 300 && status < 400) {
        return finish(`redirect not followed: ${status} to ${res.headers.location ?? '(no location)'}`);
      }
      res.on('data', (chunk: Buffer) => {
        const room = request.maxResponseBytes - received;
        chunks.push(chunk.subarray(0, room));
        received += Math.min(chunk.length, room);
        // Enough read: the rest of the answer is not worth the memory or the wait.
        if (chunk.length >= room) finish(null);
      });
      res.on('end', () => finish(null));
      res.on('close', () => finish(res.complete ? null : INCOMPLETE));
    });
    req.on('error', (err) => finish(`request failed: ${err.message}`));
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) return finish(timedOut);
    req.end(request.body);
  });
}
