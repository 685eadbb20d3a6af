/**
 * A check's image `content` as the client sent it: an http(s) URL to fetch, a base64
 * data URI, or bare base64. Inline bytes are size-checked from the length of the
 * base64 text before anything is decoded, so an oversized string costs no allocation.
 */
import { imageTooLarge, invalidImage } from './media-errors';

export const DEFAULT_MAX_IMAGE_BYTES = 20 * 1024 * 1024;

export type ImageSource = { kind: 'url'; url: string } | { kind: 'inline'; bytes: Buffer };

const FORMS = 'content must be an http(s) URL, a data URI (data:image/...;base64,...) or base64-encoded image bytes';
/** Both alphabets (standard `+/`, url-safe `-_`), padding and whitespace. */
const NOT_BASE64 = /[^A-Za-z0-9+/\-_=\s]/;

export function parseImageInput(content: string, maxBytes: number): ImageSource {
  const text = content.trim();
  if (text.length === 0) throw invalidImage(`content is empty; ${FORMS}`);
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text.slice(0, 32))?.[1].toLowerCase();
  if (scheme === 'http' || scheme === 'https') return { kind: 'url', url: parseHttpUrl(text) };
  if (scheme === 'data') return { kind: 'inline', bytes: decodeBase64(dataUriPayload(text), maxBytes, "the data URI's data") };
  if (scheme !== undefined) throw invalidImage(`${FORMS}; "${scheme}:" URLs are not accepted`);
  return { kind: 'inline', bytes: decodeBase64(text, maxBytes, 'the content', `; ${FORMS}`) };
}

/** Bytes that `length` base64 characters (whitespace and padding excluded) decode to, or null if no base64 has that length. */
export function base64DecodedLength(length: number): number | null {
  return length % 4 === 1 ? null : Math.floor((length * 3) / 4);
}

function parseHttpUrl(text: string): string {
  try {
    return new URL(text).href;
  } catch {
    throw invalidImage(`content starts like an http(s) URL but is not a valid URL`);
  }
}

function dataUriPayload(text: string): string {
  const comma = text.indexOf(',');
  if (comma === -1) throw invalidImage('the data URI has no "," before its data (data:image/png;base64,...)');
  const params = text.slice('data:'.length, comma).split(';');
  if (params[params.length - 1].trim().toLowerCase() !== 'base64') {
    throw invalidImage('the data URI must be base64-encoded (data:image/png;base64,...); percent-encoded data URIs are not accepted');
  }
  return text.slice(comma + 1);
}

function decodeBase64(text: string, maxBytes: number, what: string, hint = ''): Buffer {
  const compact = /\s/.test(text) ? text.replace(/\s+/g, '') : text;
  const padding = compact.endsWith('==') ? 2 : compact.endsWith('=') ? 1 : 0;
  const size = base64DecodedLength(compact.length - padding);
  // Arithmetic only: a huge string is refused before it is scanned or decoded.
  if (size !== null && size > maxBytes) {
    throw imageTooLarge(`the image is ${size} bytes once decoded; the limit is ${maxBytes} bytes`);
  }
  const bad = NOT_BASE64.exec(text);
  if (bad) {
    const code = bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    throw invalidImage(`${what} is not valid base64: character "${bad[0]}" (U+${code}) at position ${bad.index}${hint}`);
  }
  const inner = compact.indexOf('=');
  if (inner !== -1 && inner < compact.length - padding) {
    throw invalidImage(`${what} is not valid base64: "=" padding in the middle (at character ${inner} without whitespace)${hint}`);
  }
  if (size === null || (padding > 0 && compact.length % 4 !== 0)) {
    throw invalidImage(`${what} is not valid base64: ${compact.length} characters cannot be complete base64 (truncated?)${hint}`);
  }
  if (size === 0) throw invalidImage('the image is empty (zero bytes)');
  return Buffer.from(compact, 'base64');
}
