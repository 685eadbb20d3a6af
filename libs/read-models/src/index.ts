export {
  DecisionDoc, PolicyDoc, KeyDoc, DecisionFilter, DocPosition,
  GuardrailDecisionDoc, GuardrailPolicyVersionDoc, GuardrailCounts, GuardrailDayCounts,
} from './documents';
export { DocWrite, toDocWrites } from './projection';
export { READ_MODELS, ReadModels, ProjectedEvent } from './read-models.port';
export { ReadModelsModule } from './read-models.module';
export { SqliteReadModels } from './sqlite/sqlite-read-models.adapter';
export { PositionWaiters } from './position-waiters';
