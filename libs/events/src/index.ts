export { TOPICS, Topic, EventEnvelope, envelope } from './envelope';
export {
  ScoreMap, CategoryResult, Action,
  DecisionCreatedV1, DecisionCreatedV2, DecisionContentType, DecisionPart, DecisionMedia, PolicySavedV1, KeyCreatedV1, KeyRevokedV1,
  DecisionCreated, PolicySaved, KeyCreated, KeyRevoked,
  GuardrailKind, GuardrailActionName, GuardrailPolicyData, GuardrailDecidedV1, GuardrailAlertV1, GuardrailPolicyVersionV1,
  GuardrailDecided, GuardrailBlocked, GuardrailApprovalRequired, GuardrailPolicyUpdated, GuardrailPolicyRolledBack,
  DomainEvent, DomainEventType, TOPIC_OF, CURRENT_VERSION,
} from './domain-events';
export {
  WEBHOOK_EVENT_TYPES, WebhookEventType, DeliveryTarget, DeliveryAttemptStatus, BatchItemInput, BatchItemResult,
  WebhookCreatedV1, WebhookUpdatedV1, WebhookDeletedV1, WebhookAutoDisabledV1,
  DeliveryScheduledV1, DeliveryAttemptedV1, DeliveryCancelledV1, BatchAcceptedV1, BatchCompletedV1, BatchFailedV1,
  WebhookCreated, WebhookUpdated, WebhookDeleted, WebhookAutoDisabled, DeliveryScheduled, DeliveryAttempted, DeliveryCancelled,
  BatchAccepted, BatchCompleted, BatchFailed,
  DecisionFrame, VideoExtraction, VideoSource, VideoAcceptedV1, VideoFrameScore, VideoProbeFacts, VideoProgressV1, VideoCompletedV1, VideoFailedV1,
  VideoAccepted, VideoProgress, VideoCompleted, VideoFailed,
} from './domain-events';
export { EventSchemaError, validateEvent, upcast, decisionCreatedV1ToV2 } from './event-schema';
