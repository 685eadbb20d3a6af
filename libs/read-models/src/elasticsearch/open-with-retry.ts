import { retry } from '@cds/backoff';
import { ElasticsearchReadModels, ElasticsearchReadModelsOptions } from './elasticsearch-read-models.adapter';
import { ReadModelsLogger } from './es-bulk';

const RETRY = { baseMs: 500, maxMs: 30_000 };

/**
 * Open the read models, waiting for a node that is down or still starting: each failed
 * attempt is logged with its reason and retried with backoff (0.5 s doubling to 30 s),
 * so the process starts once Elasticsearch is up instead of crashing. `signal` abandons it.
 */
export async function openElasticsearchWithRetry(
  o: ElasticsearchReadModelsOptions & { logger: ReadModelsLogger; signal?: AbortSignal },
  sleep = (ms: number) => abortableSleep(ms, o.signal),
): Promise<ElasticsearchReadModels> {
  const aborted = () => !!o.signal?.aborted;
  try {
    return await retry(
      async () => {
        if (aborted()) throw new Error('abandoned');
        return ElasticsearchReadModels.open(o);
      },
      RETRY,
      {
        stopped: aborted,
        onFailure: (err, attempt, delay) =>
          o.logger.error(`Elasticsearch at ${o.node} is not usable yet (attempt ${attempt}): ${(err as Error).message}; retrying in ${delay} ms`),
        sleep,
      },
    );
  } catch (err) {
    if (aborted()) throw new Error(`opening Elasticsearch at ${o.node} was abandoned`);
    throw err;
  }
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
}
