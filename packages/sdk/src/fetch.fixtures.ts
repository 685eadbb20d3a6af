/** Test doubles shared by the SDK's unit specs (not part of the package's surface). */
import type { Clock } from './http.transport';

export interface RecordedRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

type Answer = Response | Error | ((req: RecordedRequest, signal?: AbortSignal) => Response | Error | Promise<Response>);

/** A fetch that answers from a script, one entry per call, and records every request. */
export function scriptedFetch(...answers: Answer[]) {
  const requests: RecordedRequest[] = [];
  const fetchFn = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((v, k) => (headers[k] = v));
    const req: RecordedRequest = {
      url: String(input),
      method: init.method ?? 'GET',
      headers,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body,
    };
    requests.push(req);
    const next = answers.shift();
    if (next === undefined) throw new Error(`unexpected request ${req.method} ${req.url}`);
    const answer = typeof next === 'function' ? await next(req, init.signal ?? undefined) : next;
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return { fetch: fetchFn as typeof fetch, requests };
}

export const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/** What undici's fetch throws when the connection fails. */
export function networkError(code: string): TypeError {
  const cause = Object.assign(new Error(`connect ${code} 127.0.0.1:1`), { code });
  return new TypeError('fetch failed', { cause });
}

/** A clock whose sleeps return at once and are recorded. */
export function fakeClock(startMs = Date.UTC(2025, 0, 1)): Clock & { sleeps: number[] } {
  const sleeps: number[] = [];
  let now = startMs;
  return {
    sleeps,
    now: () => now,
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw signal.reason;
      sleeps.push(ms);
      now += ms;
    },
  };
}
