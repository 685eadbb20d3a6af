import { createHash } from 'node:crypto';
import { ScoreRequest } from '@cds/providers';

/** What a provider answered, as kept in the cache. */
export interface CachedScore {
  signals: Record<string, number>;
  cost: number;
}

/** A provider answer as the call that is still out will give it. */
export interface FlightResult extends CachedScore {
  model?: string;
}

/**
 * Provider answers by (provider, model, content hash), for PROVIDER_CACHE_TTL seconds, at
 * most `maxEntries` (least recently used out first): a retried check or a duplicate batch
 * item is not paid twice. Single flight: while a call for a key is out, another check of
 * the same content waits for that call instead of making its own (two identical items of
 * one batch, checked at the same moment). In memory, per process; nothing of the content
 * is kept but its hash.
 */
export class ProviderCache {
  private readonly entries = new Map<string, { value: CachedScore; expiresAt: number }>();
  private readonly flights = new Map<string, Promise<FlightResult>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  get enabled(): boolean {
    return this.ttlMs > 0 && this.maxEntries > 0;
  }

  get(key: string): CachedScore | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    this.entries.delete(key);
    if (hit.expiresAt <= this.now()) return undefined;
    this.entries.set(key, hit); // most recently used last
    return hit.value;
  }

  set(key: string, value: CachedScore): void {
    if (!this.enabled) return;
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.now() + this.ttlMs });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The call out for this key, if any. */
  inFlight(key: string): Promise<FlightResult> | undefined {
    return this.flights.get(key);
  }

  /** Registers the call out for `key` until it settles (answer or failure alike). */
  fly(key: string, call: Promise<FlightResult>): void {
    if (!this.enabled) return;
    this.flights.set(key, call);
    const land = () => {
      if (this.flights.get(key) === call) this.flights.delete(key);
    };
    call.then(land, land);
  }

  /** Calls out now. */
  get flying(): number {
    return this.flights.size;
  }
}

/** The cache key of one request to one provider (and model): the content as a hash. */
export function providerCacheKey(provider: string, model: string | undefined, request: ScoreRequest): string {
  const h = createHash('sha256').update(request.modality).update('\0').update(request.language).update('\0');
  if (request.modality === 'text') h.update(request.injection ? 'injection\0' : '').update(request.text);
  else h.update(request.image.bytes).update(request.image.format);
  return `${provider}\0${model ?? ''}\0${h.digest('hex')}`;
}
