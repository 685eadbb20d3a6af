import type { EncodedEvent, LiftedEvent, LogPosition } from '@cds/event-log';
import { WebhookReadModels } from './webhook-read-models.port';
import { DecisionReadModels, GuardrailReadModels, KeyReadModels, PolicyReadModels } from './query-read-models.port';
import type { LiveGenerations } from './generations.port';

/** An event read from the log and lifted to its current schema (`liftBatch`). */
export type ProjectedEvent = LiftedEvent;

export const READ_MODELS = Symbol('READ_MODELS');

/**
 * The read side. Filled only by the projector (`applyBatch`), queried by the api through
 * the query port of each context (query-read-models.port.ts, WebhookReadModels). Every query is
 * scoped by tenant: there is no way to read across tenants.
 */
export interface ReadModels extends DecisionReadModels, PolicyReadModels, KeyReadModels, GuardrailReadModels, WebhookReadModels {
  /** Apply a batch of log events idempotently: an event at or below a document's
   * stored position changes nothing. Records the applied position per partition. */
  applyBatch(batch: ProjectedEvent[]): Promise<void>;
  /** Resolves true once every position is applied (read-your-writes), false on timeout. */
  waitFor(positions: LogPosition[], timeoutMs: number): Promise<boolean>;
  /** Identifier of the generation being served, e.g. to name the projector's group. */
  generation(): string;

  /** Next offset applied per `topic:partition`, as this instance knows it. */
  appliedNextOffsets(): Map<string, number>;

  /** The adapter itself when a rebuild in another process can replace the generation it
   * serves (Elasticsearch); null when it cannot (SQLite). */
  liveGenerations(): (ReadModels & LiveGenerations) | null;
  /** The adapter itself when it applies events still as log text, parsed on its own
   * thread (SQLite); null when it takes them parsed (`applyBatch`). */
  encodedApply(): EncodedApply | null;

  healthy(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Read models that take events as the log holds them (JSON text) and parse them off the
 * caller's thread (SQLite: its writer thread). Same effect as `applyBatch` of the lifted
 * events; resolves with one message per event parked (unreadable, skipped).
 */
export interface EncodedApply {
  applyEncoded(batch: EncodedEvent[]): Promise<string[]>;
}
