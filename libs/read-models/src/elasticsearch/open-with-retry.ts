import { backoffDelay } from '@cds/backoff';
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
  for (let attempt = 1; ; attempt++) {
    try {
      if (o.signal?.aborted) throw new Error('abandoned');
      return await ElasticsearchReadModels.open(o);
    } catch (err) {
      if (o.signal?.aborted) throw new Error(`opening Elasticsearch at ${o.node} was abandoned`);
      const delay = backoffDelay(attempt - 1, RETRY);
      o.logger.error(`Elasticsearch at ${o.node} is not usable yet (attempt ${attempt}): ${(err as Error).message}; retrying in ${delay} ms`);
      await sleep(delay);
    }
  }
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
}
