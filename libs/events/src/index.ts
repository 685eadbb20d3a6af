export { TOPICS, Topic, EventEnvelope, envelope } from './envelope';
export {
  ScoreMap, CategoryResult, Action,
  DecisionCreatedV1, PolicySavedV1, KeyCreatedV1, KeyRevokedV1,
  DecisionCreated, PolicySaved, KeyCreated, KeyRevoked,
  DomainEvent, DomainEventType, TOPIC_OF, CURRENT_VERSION,
} from './domain-events';
export { EventSchemaError, validateEvent, upcast } from './event-schema';
