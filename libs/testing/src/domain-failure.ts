import { DomainError } from '@cds/errors';

/** The DomainError `fn` throws; fails the test when it throws nothing or something else. */
export function domainFailure(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (e) {
    if (e instanceof DomainError) return e;
    throw e;
  }
  throw new Error('expected a DomainError; nothing was thrown');
}
