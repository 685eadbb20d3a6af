import { DomainError } from '@cds/errors';
import { checkBatchItems, ItemDecision } from './batch-items';

const items = [
  { id: 'a', content: 'fine' },
  { id: 'b', content: 'log away' },
  { id: 'c', content: 'too long' },
  { id: 'd', content: '' },
  { id: 'e', content: 'x', contentType: 'audio' },
];

/** Answers by content: the log away for one item, a lasting refusal for another. */
async function decide(item: { content: string }): Promise<ItemDecision> {
  if (item.content === 'log away') throw new DomainError('unavailable', 'EVENT_LOG_UNAVAILABLE', 'The event log is unavailable', 'retry');
  if (item.content === 'too long') throw new DomainError('invalid', 'CONTENT_TOO_LONG', 'Content too long', 'at most 3');
  if (item.content === 'bug') throw new TypeError('boom');
  return { safe: true, action: 'allow', decisionId: `d-${item.content}` };
}
const options = { concurrency: 2, contentTypes: ['text', 'image', 'video'] };

describe('checkBatchItems', () => {
  it('reports each failed item beside the others, in request order (a synchronous batch)', async () => {
    expect(await checkBatchItems(items, decide, options)).toEqual([
      { id: 'a', safe: true, action: 'allow', decisionId: 'd-fine' },
      { id: 'b', error: { code: 'EVENT_LOG_UNAVAILABLE', message: 'The event log is unavailable', details: 'retry' } },
      { id: 'c', error: { code: 'CONTENT_TOO_LONG', message: 'Content too long', details: 'at most 3' } },
      { id: 'd', error: expect.objectContaining({ code: 'VALIDATION_ERROR', details: 'content should not be empty' }) },
      { id: 'e', error: expect.objectContaining({ code: 'VALIDATION_ERROR', details: 'contentType must be one of text, image, video' }) },
    ]);
  });

  it('fails the whole call on an outage when asked, so an async batch runs again instead of freezing it', async () => {
    await expect(checkBatchItems(items, decide, { ...options, rethrowUnavailable: true })).rejects.toMatchObject({ code: 'EVENT_LOG_UNAVAILABLE' });
    const lasting = await checkBatchItems([items[0], items[2]], decide, { ...options, rethrowUnavailable: true });
    expect(lasting[1]).toEqual({ id: 'c', error: expect.objectContaining({ code: 'CONTENT_TOO_LONG' }) });
  });

  it('turns an unexpected failure into INTERNAL_ERROR for that item and reports it', async () => {
    const seen: string[] = [];
    const r = await checkBatchItems([{ id: 'z', content: 'bug' }], decide, { ...options, rethrowUnavailable: true, onUnexpected: (i) => seen.push(i.id) });
    expect(r).toEqual([{ id: 'z', error: expect.objectContaining({ code: 'INTERNAL_ERROR' }) }]);
    expect(seen).toEqual(['z']);
  });
});
