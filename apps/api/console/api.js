// Every call to the service: the API key from sessionStorage (never localStorage, never
// a cookie) in the Authorization header. A 401 ends the session and returns to sign-in.

import { go } from './dom.js';

const KEY = 'cds.console.apiKey';

export const session = {
  key: () => sessionStorage.getItem(KEY),
  signIn: (key) => sessionStorage.setItem(KEY, key),
  /** Everything the console kept for this tab goes: the key and the last project. */
  signOut: () => sessionStorage.clear(),
};

/** An answer other than 2xx, with the service's error body {error, code, details}. */
export class ApiError extends Error {
  constructor(status, body) {
    super(body?.error ?? `HTTP ${status}`);
    this.status = status;
    this.code = body?.code ?? null;
    this.details = body?.details ?? '';
  }
}

async function call(method, path, body, key) {
  const headers = { Authorization: 'Bearer ' + key };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
  } catch {
    throw new ApiError(0, { error: 'The service did not answer', code: 'NETWORK_ERROR', details: 'check the connection and retry' });
  }
  return res;
}

async function parsed(res) {
  const text = await res.text();
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

async function checked(res) {
  if (res.status === 401) {
    session.signOut();
    go(`#/sign-in?expired=1&next=${encodeURIComponent(location.hash)}`);
  }
  if (!res.ok) throw new ApiError(res.status, await parsed(res));
  return res;
}

/** JSON of a /v1 call, or an ApiError. */
export async function api(method, path, body) {
  return parsed(await checked(await call(method, path, body, session.key())));
}

export const get = (path) => api('GET', path);
export const post = (path, body) => api('POST', path, body);

/** A media file fetched with the key, as an object URL (the caller revokes it). */
export async function blobUrl(path) {
  const res = await checked(await call('GET', path, undefined, session.key()));
  return URL.createObjectURL(await res.blob());
}

/** Whether a key opens the service: null when it does (a 403 means a key with fewer
 * scopes, still a key), else the ApiError that refused it. */
export async function probeKey(key) {
  try {
    const res = await call('GET', '/v1/decisions?limit=1', undefined, key);
    if (res.ok || res.status === 403) return null;
    return new ApiError(res.status, await parsed(res));
  } catch (err) {
    return err;
  }
}
