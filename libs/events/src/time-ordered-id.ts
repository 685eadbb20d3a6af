import { randomUUID } from 'node:crypto';

/**
 * A new aggregate id as a UUID version 7 (RFC 9562): the first 48 bits are the Unix time
 * in milliseconds, the other 74 free bits random (those of a version 4 UUID). Ids made
 * one after the other sort by time, so the read models' primary-key indexes (SQLite's
 * B-tree, Elasticsearch's `_id` terms) take each new one at their end instead of at a
 * random page: the projection's writes stay on a few hot pages. Ordering within one
 * millisecond is random, which is all the indexes need.
 */
export function timeOrderedId(now: number = Date.now()): string {
  const random = randomUUID(); // xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx, V the variant
  const time = Math.max(0, Math.floor(now)).toString(16).padStart(12, '0').slice(-12);
  return `${time.slice(0, 8)}-${time.slice(8)}-7${random.slice(15)}`;
}
