import type { estypes } from '@elastic/elasticsearch';
import { DocType } from './es-index-layout';
import { PlannedWrite } from './es-write-plan';

/** What the adapter logs through (a Nest `Logger` fits). */
export interface ReadModelsLogger {
  log(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export function bulkOperations(writes: PlannedWrite[], indexOf: (type: DocType) => string): estypes.BulkRequest['operations'] {
  return writes.flatMap((w) =>
    w.op === 'create'
      ? [{ create: { _index: indexOf(w.type), _id: w.id } }, w.doc]
      : [{ index: { _index: indexOf(w.type), _id: w.id, version: w.version, version_type: 'external' as const } }, w.doc],
  );
}

/** Failed items of a bulk, apart from version conflicts (the write was applied already
 * or a newer one is stored). `parked`: refused for good (a document the mapping
 * rejects); `retry`: may pass later (node busy, shard unavailable). */
export function failuresOf(res: estypes.BulkResponse): { retry: string[]; parked: string[] } {
  const retry: string[] = [];
  const parked: string[] = [];
  for (const item of res.items) {
    const r = Object.values(item)[0];
    if (!r?.error || r.status === 409) continue;
    const text = `${r._index}/${r._id}: ${r.status} ${r.error.type} ${r.error.reason ?? ''}`;
    (r.status === 429 || r.status >= 500 || r.error.type === 'index_not_found_exception' ? retry : parked).push(text);
  }
  return { retry, parked };
}
