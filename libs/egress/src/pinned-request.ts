/**
 * Outbound requests to an address the egress guard vetted: the connection is pinned to
 * those addresses (through `lookup`, so a DNS rebind between check and connect has
 * nothing to work with) while the request still names the original host.
 */
import https from 'node:https';
import { isIP, LookupFunction } from 'node:net';
import { EgressTarget } from './egress-guard';

export function pinnedRequestOptions(target: EgressTarget, method: string, headers: Record<string, string>): https.RequestOptions {
  const { url, addresses } = target;
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  return {
    method,
    host: hostname,
    port: url.port || (url.protocol === 'https:' ? 443 : 80),
    path: `${url.pathname}${url.search}`,
    headers: { ...headers, host: url.host },
    lookup: pinnedLookup(addresses),
    // SNI takes a name, never an IP; certificates do not carry the root's trailing dot.
    ...(url.protocol === 'https:' && !isIP(hostname) ? { servername: hostname.replace(/\.$/, '') } : {}),
    agent: false, // no pooled socket that an earlier resolution opened
  };
}

function pinnedLookup(addresses: string[]): LookupFunction {
  const entries = addresses.map((address) => ({ address, family: isIP(address.split('%')[0]) }));
  return (_hostname, options, callback) => {
    if (options.all) callback(null, entries);
    else callback(null, entries[0].address, entries[0].family);
  };
}

/** The promise's value, or undefined if the signal fires first (a deadline). */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise<T | undefined>((resolve, reject) => {
    const onAbort = () => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}
