export { TOPICS, Topic, EventEnvelope, envelope } from './envelope';
export {
  ScoreMap, CategoryResult, Action,
  DecisionCreatedV1, PolicySavedV1, KeyCreatedV1, KeyRevokedV1,
  DecisionCreated, PolicySaved, KeyCreated, KeyRevoked,
  GuardrailKind, GuardrailActionName, GuardrailPolicyData, GuardrailDecidedV1, GuardrailAlertV1, GuardrailPolicyVersionV1,
  GuardrailDecided, GuardrailBlocked, GuardrailApprovalRequired, GuardrailPolicyUpdated, GuardrailPolicyRolledBack,
  DomainEvent, DomainEventType, TOPIC_OF, CURRENT_VERSION,
} from './domain-events';
export { EventSchemaError, validateEvent, upcast } from './event-schema';
