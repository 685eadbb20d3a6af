import { DomainError, invalid } from '@cds/errors';
import { BatchItemInput, BatchItemResult } from '@cds/events';
import { mapBounded } from './bounded-pool';

export interface ItemDecision {
  safe: boolean;
  action: string;
  decisionId: string;
}

export interface BatchItemsOptions {
  concurrency: number;
  contentTypes: readonly string[];
  /** An item that met a dependency outage (503: log or read models away) fails the whole
   * call instead of being reported, so an async batch is run again later rather than
   * frozen with the outage in its results. */
  rethrowUnavailable?: boolean;
  onUnexpected?: (item: BatchItemInput, err: unknown) => void;
}

/**
 * The items of a batch, `concurrency` at a time, each through `decide` (the one check
 * path). An item that fails gets `{id, error: {code, message, details}}`; the others are
 * unaffected. Results are in request order.
 */
export function checkBatchItems(
  items: readonly BatchItemInput[],
  decide: (item: BatchItemInput, index: number) => Promise<ItemDecision>,
  o: BatchItemsOptions,
): Promise<BatchItemResult[]> {
  return mapBounded(items, o.concurrency, async (item, i): Promise<BatchItemResult> => {
    try {
      if (item.content.length === 0) throw invalid('VALIDATION_ERROR', 'Invalid request parameters', 'content should not be empty');
      if (item.contentType !== undefined && !o.contentTypes.includes(item.contentType)) {
        throw invalid('VALIDATION_ERROR', 'Invalid request parameters', `contentType must be one of ${o.contentTypes.join(', ')}`);
      }
      const d = await decide(item, i);
      return { id: item.id, safe: d.safe, action: d.action as 'allow' | 'warn' | 'flag' | 'block', decisionId: d.decisionId };
    } catch (err) {
      if (o.rethrowUnavailable && err instanceof DomainError && err.kind === 'unavailable') throw err;
      if (err instanceof DomainError) return { id: item.id, error: { code: err.code, message: err.message, details: err.details } };
      o.onUnexpected?.(item, err);
      return { id: item.id, error: { code: 'INTERNAL_ERROR', message: 'Internal server error', details: 'the item could not be checked; retry it' } };
    }
  });
}
