import { ElasticsearchReadModels, ElasticsearchReadModelsOptions } from './elasticsearch-read-models.adapter';
import { ReadModelsLogger } from './es-bulk';

/**
 * Open the read models, waiting for a node that is down or still starting: each failed
 * attempt is logged with its reason and retried with backoff (0.5 s doubling to 30 s),
 * so the process starts once Elasticsearch is up instead of crashing.
 */
export async function openElasticsearchWithRetry(
  o: ElasticsearchReadModelsOptions & { logger: ReadModelsLogger },
  sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms)),
): Promise<ElasticsearchReadModels> {
  let delay = 500;
  for (let attempt = 1; ; attempt++) {
    try {
      return await ElasticsearchReadModels.open(o);
    } catch (err) {
      o.logger.error(`Elasticsearch at ${o.node} is not usable yet (attempt ${attempt}): ${(err as Error).message}; retrying in ${delay} ms`);
      await sleep(delay);
      delay = Math.min(30_000, delay * 2);
    }
  }
}
