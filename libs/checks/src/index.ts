export { CheckEngineModule } from './check-engine.module';
export { AsyncBatchModule } from './async-batch.module';
export { AsyncBatchRunner } from './async-batch.runner';
export { BatchChecker } from './batch-checker.service';
export { CheckContentCommand } from './check-content.command';
export { PolicyCatalog } from './policy-catalog.service';
export { TextModeration, LOCAL_PROVIDER } from './text-moderation.service';
export { CheckRequestDto, CheckDecision, CONTENT_TYPES, POLICY_ID_PATTERN, POLICY_ID_MESSAGE } from './check-request';
