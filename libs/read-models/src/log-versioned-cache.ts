import type { Topic } from '@cds/events';
import type { LogEnds } from './consistent-reads';
import { LRUCache } from 'lru-cache';

/**
 * Read-model answers kept in memory while a topic's log does not move: an entry is
 * served only while the topic's end is the one it was read at, so the first append to
 * the topic (a key revoked, a policy saved, on any replica) retires every entry at once.
 * Asking the end costs nothing on the file log and one coalesced ListOffsets on Kafka,
 * instead of a query and a wait for the projection.
 *
 * At most `maxEntries` answers are kept, the least recently used dropped first. A miss (null) is kept only with `keepMisses`:
 * a built-in policy id is asked for on every check, while unknown API keys, which anyone
 * can send, are looked up each time. A log that cannot tell its end is not trusted: the
 * value is loaded.
 */
export class LogVersionedCache<V> {
  private readonly entries: LRUCache<string, { version: string; value: V | null }>;
  private readonly keepMisses: boolean;

  constructor(
    private readonly ends: LogEnds,
    private readonly topic: Topic,
    o: { maxEntries?: number; keepMisses?: boolean } = {},
  ) {
    this.entries = new LRUCache({ max: o.maxEntries ?? 10_000 });
    this.keepMisses = o.keepMisses ?? false;
  }

  async get(key: string, load: () => Promise<V | null>): Promise<V | null> {
    let version = this.ends.versionNow(this.topic);
    if (version === undefined) {
      try {
        version = await this.ends.version(this.topic);
      } catch {
        return load();
      }
    }
    const hit = this.entries.get(key);
    if (hit && hit.version === version) return hit.value;
    // `load` reads at or after `version` (its query waits for the log's end): kept under
    // the older version, the entry is read again after any append, never served stale.
    const value = await load();
    if (value === null && !this.keepMisses) {
      this.entries.delete(key);
      return null;
    }
    this.entries.set(key, { version, value });
    return value;
  }
}
