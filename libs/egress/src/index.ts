/** Outbound HTTP a user's URL may cause (webhook deliveries, media fetched by URL): which
 * addresses it may reach, and requests pinned to the address that was checked. */
export { EgressRefusedError, checkEgressUrl, isRangeAllowed, resolveWithDns } from './egress-guard';
export type { EgressPolicy, EgressCheckOptions, EgressTarget, EgressRefusalReason, Resolver } from './egress-guard';
export { parseIp } from './ip-address';
export type { IpAddress } from './ip-address';
export { classifyIp } from './ip-range';
export type { IpRange } from './ip-range';
export { pinnedRequestOptions, untilAborted } from './pinned-request';
