import { idempotentDecisionId } from './decision-id';

describe('idempotentDecisionId', () => {
  it('is a version 5 UUID, the same for the same tenant and requestId', () => {
    const id = idempotentDecisionId('t1', 'req-1');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(idempotentDecisionId('t1', 'req-1')).toBe(id);
  });

  it('differs across tenants and requestIds, including ones that would concatenate alike', () => {
    const ids = [
      idempotentDecisionId('t1', 'req-1'),
      idempotentDecisionId('t2', 'req-1'),
      idempotentDecisionId('t1', 'req-2'),
      idempotentDecisionId('t1r', 'eq-1'),
    ];
    expect(new Set(ids).size).toBe(ids.length);
  });
});
