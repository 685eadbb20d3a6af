import { errors } from '@elastic/elasticsearch';
import { DomainError } from '@cds/errors';

/** A document that is not there (its index is). */
export function isNotFound(err: unknown): boolean {
  return err instanceof errors.ResponseError && err.statusCode === 404 && (err.body as { found?: boolean } | undefined)?.found === false;
}

/** The node cannot answer now (down, slow, overloaded, indices missing): retryable. */
export function isUnavailable(err: unknown): boolean {
  if (err instanceof errors.ConnectionError || err instanceof errors.TimeoutError || err instanceof errors.NoLivingConnectionsError) return true;
  if (!(err instanceof errors.ResponseError)) return false;
  const status = err.statusCode ?? 0;
  return status === 429 || status >= 500 || (status === 404 && /index_not_found/.test(err.message));
}

/** Run a query; a node that cannot answer becomes a 503 READ_MODELS_UNAVAILABLE with the reason. */
export async function asUnavailable<T>(query: () => Promise<T>): Promise<T> {
  try {
    return await query();
  } catch (err) {
    if (isUnavailable(err))
      throw new DomainError('unavailable', 'READ_MODELS_UNAVAILABLE', 'Read models are unavailable', `Elasticsearch: ${(err as Error).message}`);
    throw err;
  }
}
