import { DecisionDoc } from '@cds/read-models';

/** Wrap in single quotes: inside them the shell expands nothing; a single quote
 * itself is closed, escaped and reopened. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** JSON with every non-ASCII and control character escaped, so the command is plain
 * printable ASCII whatever the content holds. */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Only scheme://host[:port][/path] of safe characters is used as a base address. */
export function safeBase(base: string): string {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    return 'http://localhost';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'http://localhost';
  const path = url.pathname.replace(/\/+$/, '');
  if (!/^[A-Za-z0-9.:[\]-]+$/.test(url.host) || !/^[A-Za-z0-9._~/-]*$/.test(path)) return 'http://localhost';
  return `${url.protocol}//${url.host}${path}`;
}

/**
 * A curl command reproducing the original check. The key is read from $API_KEY (never
 * embedded); requestId is left out so the check runs again rather than answering the
 * cached decision. An image is sent as its URL, or as the `media:sha256:` reference the
 * service keeps for MEDIA_RETENTION_DAYS (no base64 in the command); a multimodal
 * decision re-runs POST /v1/check/multimodal with its text and images.
 */
export function buildCurl(
  base: string,
  d: Pick<DecisionDoc, 'content' | 'policyId' | 'contentType' | 'language' | 'metadata'> & { parts?: DecisionDoc['parts'] },
): string {
  const hasMetadata = d.metadata && Object.keys(d.metadata).length > 0;
  if (d.contentType === 'video') return videoCurl(base, d);
  let path = '/v1/check';
  let body: Record<string, unknown>;
  if (d.contentType === 'multimodal') {
    path = '/v1/check/multimodal';
    const { context, ...metadata } = (d.metadata ?? {}) as Record<string, unknown>;
    const parts = d.parts ?? [];
    const text = parts.some((p) => p.contentType === 'text') ? d.content : undefined;
    const images = parts.filter((p) => p.contentType === 'image').map((p) => p.contentRef);
    const video = parts.find((p) => p.contentType === 'video')?.contentRef;
    body = {
      ...(text !== undefined ? { text } : {}),
      ...(images.length > 0 ? { images } : {}),
      ...(video ? { video } : {}),
      policyId: d.policyId,
      context: { ...(typeof context === 'object' && context !== null ? context : {}), language: d.language },
      ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
    };
  } else {
    body = { content: d.content, policyId: d.policyId, contentType: d.contentType, language: d.language };
    if (hasMetadata) body.metadata = d.metadata;
  }
  return [
    'curl -sS -X POST',
    shellQuote(`${safeBase(base)}${path}`),
    '-H "Authorization: Bearer $API_KEY"',
    "-H 'Content-Type: application/json'",
    '--data-binary',
    shellQuote(asciiJson(body)),
  ].join(' ');
}

const AUTH = '-H "Authorization: Bearer $API_KEY"';

/** A video again: by its URL (POST /v1/video/check), or, for an upload, its kept copy
 * fetched from GET /v1/media and piped into POST /v1/video/upload. */
function videoCurl(base: string, d: Pick<DecisionDoc, 'content' | 'policyId' | 'language' | 'metadata'>): string {
  const root = safeBase(base);
  const sha256 = /^media:sha256:([0-9a-f]{64})$/.exec(d.content)?.[1];
  if (!sha256) {
    const body: Record<string, unknown> = { videoUrl: d.content, policyId: d.policyId, language: d.language };
    if (d.metadata && Object.keys(d.metadata).length > 0) body.metadata = d.metadata;
    return [
      'curl -sS -X POST',
      shellQuote(`${root}/v1/video/check`),
      AUTH,
      "-H 'Content-Type: application/json'",
      '--data-binary',
      shellQuote(asciiJson(body)),
    ].join(' ');
  }
  return [
    'curl -sS',
    shellQuote(`${root}/v1/media/sha256/${sha256}`),
    AUTH,
    '|',
    'curl -sS -X POST',
    shellQuote(`${root}/v1/video/upload`),
    AUTH,
    '-F',
    shellQuote('video=@-;filename=video'),
    '-F',
    shellQuote(`policyId=${d.policyId}`),
    '-F',
    shellQuote(`language=${d.language}`),
  ].join(' ');
}
