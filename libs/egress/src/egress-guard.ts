/**
 * The one gate for outbound requests made on a user's behalf (DESIGN.md, security
 * posture): http(s) only, no credentials in the URL, and every address the host
 * resolves to must be public unless configuration allows loopback or private ranges.
 * The caller connects only to the returned addresses, so a later DNS answer cannot
 * redirect the request.
 */
import { lookup } from 'node:dns/promises';
import { DomainError } from '@cds/errors';
import { parseIp } from './ip-address';
import { classifyIp, IpRange } from './ip-range';

export interface EgressPolicy {
  /** Permits 127/8 and ::1 (EGRESS_ALLOW_LOOPBACK; tests use it). */
  allowLoopback?: boolean;
  /** Permits private, loopback and link-local ranges; never the metadata addresses. */
  allowPrivate?: boolean;
}

/** All A and AAAA records of a host name. */
export type Resolver = (hostname: string) => Promise<string[]>;

export interface EgressCheckOptions extends EgressPolicy {
  resolve?: Resolver;
  /** Give up on a host name that does not resolve within this time (`dns_timeout`).
   * Unbounded by default: a delivery bounds the whole request with its own timeout. */
  resolveTimeoutMs?: number;
}

export interface EgressTarget {
  url: URL;
  /** The vetted addresses; connect to these and nothing else. */
  addresses: string[];
}

export type EgressRefusalReason =
  'invalid_url' | 'unsupported_scheme' | 'credentials_in_url' | 'dns_failure' | 'dns_timeout' | 'unparseable_address' | 'forbidden_address';

export class EgressRefusedError extends DomainError {
  constructor(
    readonly reason: EgressRefusalReason,
    message: string,
    /** The offending address, for `unparseable_address` and `forbidden_address`. */
    readonly address?: string,
    readonly range?: IpRange,
  ) {
    super('invalid', 'EGRESS_REFUSED', message, reason);
    this.name = 'EgressRefusedError';
  }
}

const RANGE_NAMES: Record<IpRange, string> = {
  public: 'a public address',
  loopback: 'a loopback address',
  private: 'a private network address',
  link_local: 'a link-local address',
  metadata: 'a cloud metadata address',
  unspecified: 'an unspecified address',
  shared: 'a carrier-grade NAT address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  reserved: 'a reserved address',
  benchmark: 'a benchmarking address',
  documentation: 'a documentation address',
};

export const resolveWithDns: Resolver = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

export async function checkEgressUrl(raw: string, options: EgressCheckOptions = {}): Promise<EgressTarget> {
  const url = parseUrl(raw);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new EgressRefusedError('unsupported_scheme', `Egress refused: only http and https URLs are allowed, not ${url.protocol}`);
  }
  if (url.username || url.password) {
    throw new EgressRefusedError('credentials_in_url', 'Egress refused: URLs with user:password@ credentials are not allowed');
  }
  // The WHATWG parser has already turned `0x7f000001`, `0177.0.0.1`, `127.1`... into dotted decimal.
  const literal = parseIp(url.hostname) ? [url.hostname.replace(/^\[|\]$/g, '')] : null;
  const addresses = literal ?? (await resolveHost(url.hostname, options.resolve ?? resolveWithDns, options.resolveTimeoutMs));
  for (const address of addresses) vet(url.hostname, address, options);
  return { url, addresses };
}

export function isRangeAllowed(range: IpRange, policy: EgressPolicy): boolean {
  switch (range) {
    case 'public':
      return true;
    case 'loopback':
      return Boolean(policy.allowLoopback || policy.allowPrivate);
    case 'private':
    case 'link_local':
      return Boolean(policy.allowPrivate);
    default:
      return false;
  }
}

function parseUrl(raw: string): URL {
  try {
    return new URL(raw);
  } catch {
    throw new EgressRefusedError('invalid_url', 'Egress refused: not a valid absolute URL');
  }
}

async function resolveHost(hostname: string, resolve: Resolver, timeoutMs?: number): Promise<string[]> {
  let addresses: string[];
  let timer: NodeJS.Timeout | undefined;
  try {
    const lookup = resolve(hostname);
    addresses =
      timeoutMs === undefined
        ? await lookup
        : await Promise.race([
            lookup,
            new Promise<never>((_, reject) => {
              timer = setTimeout(
                () => reject(new EgressRefusedError('dns_timeout', `DNS lookup of ${hostname} did not answer within ${timeoutMs} ms`)),
                timeoutMs,
              );
            }),
          ]);
  } catch (err) {
    if (err instanceof EgressRefusedError) throw err;
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new EgressRefusedError('dns_failure', `DNS lookup failed for ${hostname} (${code})`);
  } finally {
    clearTimeout(timer);
  }
  if (addresses.length === 0) throw new EgressRefusedError('dns_failure', `DNS lookup failed for ${hostname} (no addresses)`);
  return addresses;
}

function vet(hostname: string, address: string, policy: EgressPolicy): void {
  const parsed = parseIp(address);
  if (!parsed) {
    throw new EgressRefusedError('unparseable_address', `Egress refused: ${hostname} resolved to ${address}, which is not a plain IP address`, address);
  }
  const range = classifyIp(parsed);
  if (!isRangeAllowed(range, policy)) {
    const target = hostname.replace(/^\[|\]$/g, '') === address ? address : `${hostname} (${address})`;
    throw new EgressRefusedError('forbidden_address', `Egress refused: ${target} is ${RANGE_NAMES[range]}`, address, range);
  }
}
