import { liftEncodedOrPark } from '@cds/events';
import type { EncodedEvent } from '@cds/event-log';
import { ProjectedEvent } from '../read-models.port';
import { GenerationLoad, ReplayFeed } from '../generations.port';
import type { ElasticsearchReadModels } from './elasticsearch-read-models.adapter';

/**
 * An Elasticsearch generation (one index per document type) loaded beside the served one,
 * which the live projector may be writing: a replay is mostly bulk round trips, so
 * partitions go side by side, one chunk each at a time. Its promotion is handed to that
 * projector (a request document, see es-generations), which alone can promote it
 * without a moment where readers miss a write. Made by the adapter
 * (`ElasticsearchReadModels.createGenerationLoad`, `openGeneration`), which alone opens
 * the generation's indices.
 */
export class ElasticsearchGenerationLoad implements GenerationLoad {
  readonly feed: ReplayFeed = { chunk: 5000, partitionsAtOnce: 8, chunksAhead: 1 };

  /** `rm`: the generation's read models, not served (createGeneration / openUnserved). */
  constructor(private readonly rm: ElasticsearchReadModels) {}

  get generation(): string {
    return this.rm.generation();
  }

  appliedNextOffsets(): Map<string, number> {
    return this.rm.appliedNextOffsets();
  }

  async apply(chunk: EncodedEvent[]): Promise<string[]> {
    const parked: string[] = [];
    const events: ProjectedEvent[] = [];
    for (const e of chunk) {
      const lifted = liftEncodedOrPark(e.json, `${e.topic}/${e.partition}@${e.offset}`);
      if ('parked' in lifted) parked.push(lifted.parked);
      else events.push({ topic: e.topic, partition: e.partition, offset: e.offset, event: lifted.event });
    }
    await this.rm.applyBatch(events);
    return parked;
  }

  async finishLoad(): Promise<void> {
    // Searchable once promoted: promote() refreshes the indices before the swap.
  }

  async requestPromotion(): Promise<boolean> {
    await this.rm.requestPromotion();
    return true;
  }

  async promotionPending(): Promise<boolean> {
    return (await this.rm.pendingPromotion())?.generation === this.generation;
  }

  async withdrawPromotion(): Promise<boolean> {
    const pending = await this.rm.pendingPromotion();
    return pending?.generation === this.generation && (await pending.claim());
  }

  async isServed(): Promise<boolean> {
    return (await this.rm.servedGeneration()) === this.generation;
  }

  promote(): Promise<void> {
    return this.rm.promote();
  }

  discard(): Promise<void> {
    return this.rm.discard();
  }

  close(): Promise<void> {
    return this.rm.close();
  }
}
