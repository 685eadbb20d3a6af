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
 * cached decision.
 */
export function buildCurl(base: string, d: Pick<DecisionDoc, 'content' | 'policyId' | 'contentType' | 'language' | 'metadata'>): string {
  const body: Record<string, unknown> = { content: d.content, policyId: d.policyId, contentType: d.contentType, language: d.language };
  if (d.metadata && Object.keys(d.metadata).length > 0) body.metadata = d.metadata;
  return [
    'curl -sS -X POST',
    shellQuote(`${safeBase(base)}/v1/check`),
    '-H "Authorization: Bearer $API_KEY"',
    "-H 'Content-Type: application/json'",
    '--data-binary',
    shellQuote(asciiJson(body)),
  ].join(' ');
}
