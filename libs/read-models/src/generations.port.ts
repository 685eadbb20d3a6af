import type { EncodedEvent } from '@cds/event-log';

/**
 * How a replay feeds a generation best. SQLite is one writer with decoder threads: one
 * partition at a time, several chunks handed ahead so the threads decode while it writes.
 * Elasticsearch is round trips: partitions side by side, one bulk request each at a time.
 */
export interface ReplayFeed {
  /** Events per chunk read from the log and handed to `apply`. */
  chunk: number;
  /** Partitions replayed side by side. */
  partitionsAtOnce: number;
  /** Chunks a partition's replay may hand over before the first of them is applied. */
  chunksAhead: number;
}

/**
 * The generations port: a read-model generation being loaded beside the served one (a
 * rebuild). Created empty and unserved (`createGeneration`), filled from the log, then
 * switched to in one step, or dropped. Both adapters implement it, so the
 * rebuild (libs/projector rebuild.ts) is one algorithm.
 */
export interface GenerationLoad {
  /** Its name (the projector names its consumer group after the served one). */
  readonly generation: string;
  readonly feed: ReplayFeed;
  /** Next offset per `topic:partition` the generation holds: where a load resumes (empty
   * when created). */
  appliedNextOffsets(): Map<string, number>;
  /**
   * Apply a chunk of one partition's events as the log holds them (JSON text), with their
   * positions, idempotently. Resolves with one message per event parked (unreadable,
   * skipped) once the chunk is written. Chunks handed before an earlier one resolved
   * (`feed.chunksAhead` > 1) are written in the order they were handed.
   */
  apply(chunk: EncodedEvent[]): Promise<string[]>;
  /** End the load: what serving needs beyond the documents (SQLite: the secondary
   * indexes, WAL, the file synced; Elasticsearch: nothing). Before any promotion. */
  finishLoad(): Promise<void>;
  /**
   * Ask the process writing the served generation to switch to this one: it stops
   * writing the served generation, opens this one (`LiveGenerations.openGeneration`),
   * brings it to the log's end and promotes it (ProjectorService.takeOverPromotion).
   * False when no such process can exist, so there is nobody to ask (SQLite: the service
   * holds the log while it runs; a rebuild runs with it stopped).
   */
  requestPromotion(): Promise<boolean>;
  /** This generation's request is still waiting for a taker. */
  promotionPending(): Promise<boolean>;
  /** Take back this generation's request; false when a taker got it first. */
  withdrawPromotion(): Promise<boolean>;
  /** This generation is the served one now. */
  isServed(): Promise<boolean>;
  /** Serve this generation from now on (one atomic switch) and delete the one it replaces. */
  promote(): Promise<void>;
  /** Delete this generation, unless it is served (a failed or abandoned load). */
  discard(): Promise<void>;
  /** Release what the load holds (connections, threads); the generation stays. */
  close(): Promise<void>;
}

/**
 * The live projector's side of the port, where a rebuild in another process can replace
 * the generation it writes (Elasticsearch, behind aliases). It takes a rebuild's
 * promotion request, finishes that generation as the rebuild would (`openGeneration`,
 * replay to the log's end, `promote()`), then writes into it. SQLite has none of this: its
 * rebuild runs with the service stopped and promotes itself.
 */
export interface LiveGenerations {
  /** The generation served right now. */
  servedGeneration(): Promise<string | null>;
  /** Write into `generation` (served now) from now on, skipping what its stored positions
   * say it has: the projector stops its batches, switches, and follows the log again from
   * there. The generation written so far is deleted. */
  switchGeneration(generation: string): Promise<void>;
  /** A rebuild elsewhere asks for its generation to be promoted; `claim()` takes the
   * request (true for exactly one taker). */
  pendingPromotion(): Promise<{ generation: string; claim: () => Promise<boolean> } | null>;
  /** The unserved `generation` a rebuild loaded, opened to be brought to the log's end and
   * promoted (from its stored positions). */
  openGeneration(generation: string): Promise<GenerationLoad>;
}
