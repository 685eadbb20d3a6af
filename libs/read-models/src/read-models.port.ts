import type { EncodedEvent, LiftedEvent, LogPosition } from '@cds/event-log';
import { WebhookReadModels } from './webhook-read-models.port';
import {
  DecisionDoc,
  DecisionFilter,
  GuardrailCounts,
  GuardrailDecisionDoc,
  GuardrailPolicyVersionDoc,
  GuardrailSessionActionDoc,
  KeyDoc,
  PolicyDoc,
} from './documents';

/** An event read from the log and lifted to its current schema (`liftBatch`). */
export type ProjectedEvent = LiftedEvent;

export const READ_MODELS = Symbol('READ_MODELS');

/**
 * The read side. Filled only by the projector (`applyBatch`), queried by the api.
 * Every query is scoped by tenant: there is no way to read across tenants.
 */
export interface ReadModels extends WebhookReadModels {
  /** Apply a batch of log events idempotently: an event at or below a document's
   * stored position changes nothing. Records the applied position per partition. */
  applyBatch(batch: ProjectedEvent[]): Promise<void>;
  /** Resolves true once every position is applied (read-your-writes), false on timeout. */
  waitFor(positions: LogPosition[], timeoutMs: number): Promise<boolean>;
  /** Identifier of the generation being served, e.g. to name the projector's group. */
  generation(): string;

  getDecision(tenantId: string, decisionId: string): Promise<DecisionDoc | null>;
  findDecisionByRequestId(tenantId: string, requestId: string): Promise<DecisionDoc | null>;
  listDecisions(tenantId: string, filter: DecisionFilter): Promise<DecisionDoc[]>;

  getPolicy(tenantId: string, policyId: string): Promise<PolicyDoc | null>;
  listPolicies(tenantId: string): Promise<PolicyDoc[]>;

  findKeyByHash(hash: string): Promise<KeyDoc | null>;
  getKey(tenantId: string, keyId: string): Promise<KeyDoc | null>;
  listKeys(tenantId: string): Promise<KeyDoc[]>;

  getGuardrailDecision(tenantId: string, decisionId: string): Promise<GuardrailDecisionDoc | null>;
  /**
   * The vetting a skill of the project is pinned to: its newest vetting that did not
   * require approval, else its first vetting; null when it was never vetted (since pinning).
   */
  getSkillPin(tenantId: string, projectId: string | null, skillId: string): Promise<GuardrailDecisionDoc | null>;
  /** The newest `limit` action authorizations of a session, newest first. */
  listSessionActions(tenantId: string, sessionId: string, limit: number): Promise<GuardrailSessionActionDoc[]>;
  /** The project's current guardrail policy: its newest version by log position. */
  getGuardrailPolicy(tenantId: string, projectId: string): Promise<GuardrailPolicyVersionDoc | null>;
  getGuardrailPolicyVersion(tenantId: string, projectId: string, version: string): Promise<GuardrailPolicyVersionDoc | null>;
  /** Every version of the project's policy, newest first. */
  listGuardrailPolicyHistory(tenantId: string, projectId: string): Promise<GuardrailPolicyVersionDoc[]>;
  /** Counts of the project's guardrail decisions with `from <= timestamp < to` (ISO 8601 UTC). */
  guardrailCounts(tenantId: string, projectId: string, from: string, to: string): Promise<GuardrailCounts>;

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
 * Read models whose served generation a rebuild in another process can replace while
 * this instance writes (Elasticsearch, behind aliases). SQLite has none of this: its
 * rebuild needs the service stopped.
 */
export interface LiveGenerations {
  /** The generation served right now. */
  servedGeneration(): Promise<string | null>;
  /** Write into `generation` from now on, skipping what its stored positions say it has:
   * the projector stops its batches, switches, and follows the log again from there.
   * The generation written so far is deleted, unless `keepPrevious` (it is still served:
   * a takeover of a promotion, which `promote()` then completes). */
  switchGeneration(generation: string, o?: { keepPrevious?: boolean }): Promise<void>;
  /** Serve this instance's generation (atomic alias swap) and delete the one it replaces. */
  promote(): Promise<void>;
  /** A rebuild elsewhere asks for its generation to be promoted; `claim()` takes the
   * request (true for exactly one taker). */
  pendingPromotion(): Promise<{ generation: string; claim: () => Promise<boolean> } | null>;
}

/**
 * Read models that take events as the log holds them (JSON text) and parse them off the
 * caller's thread (SQLite: its writer thread). Same effect as `applyBatch` of the lifted
 * events; resolves with one message per event parked (unreadable, skipped).
 */
export interface EncodedApply {
  applyEncoded(batch: EncodedEvent[]): Promise<string[]>;
}
