export { DomainError, DomainErrorKind, notFound, invalid } from './domain-error';
