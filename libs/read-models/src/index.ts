export {
  DecisionDoc,
  PolicyDoc,
  KeyDoc,
  DecisionFilter,
  DocPosition,
  GuardrailDecisionDoc,
  GuardrailSessionActionDoc,
  GuardrailPolicyVersionDoc,
  GuardrailCounts,
  GuardrailDayCounts,
  WebhookDoc,
  DeliveryDoc,
  DeliveryState,
  DeliveryAttemptDoc,
  BatchDoc,
  BatchState,
} from './documents';
export { WebhookReadModels } from './webhook-read-models.port';
export { DecisionReadModels, GuardrailReadModels, KeyReadModels, PolicyReadModels } from './query-read-models.port';
export { DocWrite, WebhookDocWrite, toDocWrites } from './projection';
export { READ_MODELS, ReadModels, ProjectedEvent, EncodedApply } from './read-models.port';
export { ReadModelsModule, createGeneration } from './read-models.module';
export { GenerationLoad, LiveGenerations, ReplayFeed } from './generations.port';
export { SqliteGenerationLoad } from './sqlite/sqlite-generation-load';
export { ElasticsearchGenerationLoad } from './elasticsearch/es-generation-load';
export { SqliteReadModels } from './sqlite/sqlite-read-models.adapter';
export { PositionWaiters } from './position-waiters';
export { ElasticsearchReadModels } from './elasticsearch/elasticsearch-read-models.adapter';
export type { ElasticsearchReadModelsOptions } from './elasticsearch/elasticsearch-read-models.adapter';
export { openElasticsearchWithRetry } from './elasticsearch/open-with-retry';
export { DeferredReadModels } from './elasticsearch/deferred-read-models';
export { ConsistentReadModels, CoalescedEnds, LogEnds } from './consistent-reads';
export { LogVersionedCache } from './log-versioned-cache';
