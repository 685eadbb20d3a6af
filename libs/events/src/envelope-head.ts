/** What a consumer can tell of an event without parsing all of it. */
export interface EnvelopeHead {
  type: string;
  tenantId: string;
}

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * An envelope's `type` and `tenantId` read from its JSON text, stopping as soon as both
 * are found: an envelope as written (`JSON.stringify(envelope(...))`) names them before
 * its `data`, so a consumer that only routes on them reads ~150 characters instead of
 * parsing the whole event. Only the top-level object's keys count (a `tenantId` inside a
 * nested value is skipped over). Null when the text is not a JSON object, a key is missing
 * or not a string: the caller then parses the whole text, which decides.
 */
export function envelopeHead(json: string): EnvelopeHead | null {
  let i = skipWs(json, 0);
  if (json.charCodeAt(i) !== 0x7b) return null; // {
  i = skipWs(json, i + 1);
  let type: string | undefined;
  let tenantId: string | undefined;
  while (i < json.length) {
    if (json.charCodeAt(i) !== QUOTE) return null;
    const keyEnd = stringEnd(json, i);
    if (keyEnd < 0) return null;
    const key = readString(json, i, keyEnd);
    i = skipWs(json, keyEnd);
    if (json.charCodeAt(i) !== 0x3a) return null; // :
    i = skipWs(json, i + 1);
    const valueEnd = json.charCodeAt(i) === QUOTE ? stringEnd(json, i) : otherEnd(json, i);
    if (valueEnd < 0) return null;
    if (key === 'type' || key === 'tenantId') {
      if (json.charCodeAt(i) !== QUOTE) return null;
      const value = readString(json, i, valueEnd);
      if (value === null) return null;
      if (key === 'type') type = value;
      else tenantId = value;
      if (type !== undefined && tenantId !== undefined) return { type, tenantId };
    }
    i = skipWs(json, valueEnd);
    const c = json.charCodeAt(i);
    if (c === 0x2c)
      i = skipWs(json, i + 1); // ,
    else return null; // } (a key missing) or malformed
  }
  return null;
}

function skipWs(s: string, i: number): number {
  while (i < s.length && WS.has(s.charCodeAt(i))) i++;
  return i;
}

/** The index after the string starting at `i` (a quote), or -1 when it does not end. */
function stringEnd(s: string, i: number): number {
  for (let j = i + 1; j < s.length; j++) {
    const c = s.charCodeAt(j);
    if (c === BACKSLASH) j++;
    else if (c === QUOTE) return j + 1;
  }
  return -1;
}

/** The string `s[from, to)` (quotes included) as its value; escapes decoded by JSON.parse. */
function readString(s: string, from: number, to: number): string | null {
  const raw = s.slice(from + 1, to - 1);
  if (raw.indexOf('\\') < 0) return raw;
  try {
    return JSON.parse(s.slice(from, to)) as string;
  } catch {
    return null;
  }
}

/** The index after a number, literal, object or array starting at `i`; -1 when it does not end. */
function otherEnd(s: string, i: number): number {
  const first = s.charCodeAt(i);
  if (first !== 0x7b && first !== 0x5b) {
    // a number or true / false / null: up to the next separator
    let j = i;
    while (j < s.length) {
      const c = s.charCodeAt(j);
      if (c === 0x2c || c === 0x7d || c === 0x5d || WS.has(c)) break;
      j++;
    }
    return j > i ? j : -1;
  }
  let depth = 0;
  for (let j = i; j < s.length; j++) {
    const c = s.charCodeAt(j);
    if (c === QUOTE) {
      j = stringEnd(s, j) - 1;
      if (j < 0) return -1;
    } else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) {
      depth--;
      if (depth === 0) return j + 1;
    }
  }
  return -1;
}
