import { envelope } from '@cds/events';
import { DomainError } from '@cds/errors';
import { ElasticsearchReadModels } from './elasticsearch-read-models.adapter';
import { aliasName } from './es-index-layout';
import { SKILL_PIN_CASES, skillPinBatch } from '../skill-pins.fixtures';
import { SESSION_ACTION_CASES, SESSION_ACTION_S1_NEWEST, sessionActionBatch } from '../session-actions.fixtures';
import { at, decision, deletePrefix, ES_URL, guardrailDecided, guardrailPolicyVersion, openRm, uniquePrefix } from './es-test-kit';

const prefix = uniquePrefix();
let rm: ElasticsearchReadModels;
/** A second instance on the same indices, opened before anything was applied: its
 * in-memory positions are stale, so what it applies reaches Elasticsearch's own guards
 * (as after a crash between a batch's documents and its positions). */
let stale: ElasticsearchReadModels;

beforeAll(async () => {
  rm = await openRm(prefix);
  stale = await openRm(prefix);
});
afterAll(async () => {
  await rm?.close();
  await stale?.close();
  await deletePrefix(prefix);
});

const ids = (docs: { decisionId: string }[]) => docs.map((d) => d.decisionId);

describe('ElasticsearchReadModels (real node)', () => {
  it('applies decisions idempotently and scopes every query by tenant', async () => {
    const batch = [
      at('decisions', 0, decision('t1', 'd1', { requestId: 'r1' })),
      at('decisions', 1, decision('t1', 'd2', { action: 'block' })),
      at('decisions', 2, decision('t2', 'd3', { action: 'block' })),
    ];
    await rm.applyBatch(batch);
    await rm.applyBatch(batch);
    await stale.applyBatch(batch); // reaches the node: every create answers 409
    expect(ids(await rm.listDecisions('t1', { limit: 10, offset: 0 })).sort()).toEqual(['d1', 'd2']);
    expect(ids(await rm.listDecisions('t1', { limit: 10, offset: 0, action: 'block' }))).toEqual(['d2']);
    expect(await rm.getDecision('t2', 'd1')).toBeNull();
    const d1 = await rm.getDecision('t1', 'd1');
    expect(d1).toEqual({ ...(batch[0].event.data as object), tenantId: 't1', timestamp: batch[0].event.occurredAt });
    // indexed with its one part once (es-write-plan.ts, toEsDecision), read back whole above
    const found = (await fetch(`${ES_URL}/${aliasName(prefix, 'decisions')}/_search?q=decisionId:d1`).then((r) => r.json())) as {
      hits: { hits: { _source: { parts: object[]; signals: unknown } }[] };
    };
    expect(found.hits.hits).toHaveLength(1);
    expect(found.hits.hits[0]._source.parts[0]).not.toHaveProperty('signals');
    expect(found.hits.hits[0]._source.signals).toEqual(d1?.signals);
    expect((await rm.findDecisionByRequestId('t1', 'r1'))?.decisionId).toBe('d1');
    expect(await rm.findDecisionByRequestId('t2', 'r1')).toBeNull();
  });

  it('never lets an older policy event overwrite a newer one, and keeps the first createdAt', async () => {
    const saved = (version: number, name: string, policyId = 'p') =>
      envelope('policy.saved', 1, 't1', policyId, { policyId, name, version, yamlContent: `name: ${name}`, categories: {}, savedBy: 'k' });
    const v1 = saved(1, 'one');
    const v2 = saved(2, 'two');
    await rm.applyBatch([at('policies', 0, v1)]);
    await rm.applyBatch([at('policies', 1, v2)]); // createdAt read back from the stored policy
    await stale.applyBatch([at('policies', 0, v1)]); // refused by the node (external version)
    expect(await rm.getPolicy('t1', 'p')).toMatchObject({ name: 'two', version: 2, createdAt: v1.occurredAt, updatedAt: v2.occurredAt });

    const w1 = saved(1, 'first', 'q');
    const w2 = saved(2, 'second', 'q');
    await rm.applyBatch([at('policies', 2, w1), at('policies', 3, w2)]); // both in one batch
    expect(await rm.getPolicy('t1', 'q')).toMatchObject({ name: 'second', createdAt: w1.occurredAt, updatedAt: w2.occurredAt });
    expect((await rm.listPolicies('t1')).map((p) => p.policyId)).toEqual(['p', 'q']);
    expect(await rm.getPolicy('t2', 'p')).toBeNull();
    expect(await rm.listPolicies('t2')).toEqual([]);
  });

  it('revokes keys, finds keys by hash, and an older event never un-revokes', async () => {
    const created = envelope('key.created', 1, 't1', 'k1', { keyId: 'k1', name: 'n', scopes: ['checks'], hash: 'ab', prefix: 'cds_x', createdBy: 'admin' });
    const revoked = envelope('key.revoked', 1, 't1', 'k1', { keyId: 'k1', revokedBy: 'admin' });
    await rm.applyBatch([at('keys', 0, created)]);
    expect((await rm.findKeyByHash('ab'))?.revokedAt).toBeNull();
    await rm.applyBatch([at('keys', 1, revoked)]);
    expect((await rm.findKeyByHash('ab'))?.revokedAt).toBe(revoked.occurredAt);
    await stale.applyBatch([at('keys', 0, created)]);
    expect((await rm.getKey('t1', 'k1'))?.revokedAt).toBe(revoked.occurredAt);
    expect(await rm.getKey('t2', 'k1')).toBeNull();
    expect((await rm.listKeys('t1')).map((k) => k.keyId)).toEqual(['k1']);

    const c2 = envelope('key.created', 1, 't1', 'k2', { keyId: 'k2', name: 'm', scopes: [], hash: 'cd', prefix: 'cds_y', createdBy: 'admin' });
    const r2 = envelope('key.revoked', 1, 't1', 'k2', { keyId: 'k2', revokedBy: 'admin' });
    await rm.applyBatch([at('keys', 2, c2), at('keys', 3, r2)]); // created and revoked in one batch
    expect((await rm.findKeyByHash('cd'))?.revokedAt).toBe(r2.occurredAt);
    const ghost = envelope('key.revoked', 1, 't1', 'nope', { keyId: 'nope', revokedBy: 'admin' });
    await rm.applyBatch([at('keys', 4, ghost)]); // nothing to revoke: no document appears
    expect(await rm.getKey('t1', 'nope')).toBeNull();
  });

  it('serves the newest guardrail policy version by log position, the history newest first, per tenant', async () => {
    const batch = [
      at('guardrails', 0, guardrailPolicyVersion('t1', 'p', 'v-a', 10)),
      at('guardrails', 1, guardrailPolicyVersion('t1', 'p', 'v-b', 20)),
      at('guardrails', 2, guardrailPolicyVersion('t2', 'p', 'v-c', 30)),
      at('guardrails', 3, guardrailPolicyVersion('t1', 'p', 'v-d', 10, 'v-a')),
    ];
    await rm.applyBatch(batch);
    await stale.applyBatch(batch);
    expect((await rm.getGuardrailPolicy('t1', 'p'))?.version).toBe('v-d');
    expect((await rm.listGuardrailPolicyHistory('t1', 'p')).map((h) => [h.version, h.policy.requireApprovalScore, h.restoredVersion])).toEqual([
      ['v-d', 10, 'v-a'],
      ['v-b', 20, null],
      ['v-a', 10, null],
    ]);
    expect(await rm.getGuardrailPolicyVersion('t1', 'p', 'v-b')).toEqual({
      tenantId: 't1',
      projectId: 'p',
      version: 'v-b',
      policy: expect.objectContaining({ requireApprovalScore: 20 }),
      updatedAt: batch[1].event.occurredAt,
      updatedBy: 'key:k',
      restoredVersion: null,
    });
    expect((await rm.getGuardrailPolicy('t2', 'p'))?.policy.requireApprovalScore).toBe(30);
    expect(await rm.getGuardrailPolicyVersion('t2', 'p', 'v-a')).toBeNull();
    expect(await rm.getGuardrailPolicy('t3', 'p')).toBeNull();
  });

  it('counts guardrail decisions per UTC day inside [from, to), per tenant and project, once per decision', async () => {
    const batch = [
      at('guardrails', 10, guardrailDecided('t1', 'p', 'g1', '2026-03-01T23:59:59.999Z', 'block', true)),
      at('guardrails', 11, guardrailDecided('t1', 'p', 'g2', '2026-03-02T00:00:00.000Z', 'allow', false, 'skill_vetting')),
      at('guardrails', 12, guardrailDecided('t1', 'p', 'g3', '2026-03-02T10:00:00.000Z', 'flag', true)),
      at('guardrails', 13, guardrailDecided('t1', 'p', 'g4', '2026-03-04T00:00:00.000Z', 'block', true)), // at `to`: excluded
      at('guardrails', 14, guardrailDecided('t1', 'other', 'g5', '2026-03-02T10:00:00.000Z', 'block', true)),
      at('guardrails', 15, guardrailDecided('t2', 'p', 'g6', '2026-03-02T10:00:00.000Z', 'block', true)),
      at(
        'guardrails',
        16,
        envelope(
          'agent.guardrail.blocked',
          1,
          't1',
          'x',
          {
            decisionId: 'x',
            projectId: 'p',
            kind: 'action_authorization' as const,
            action: 'block' as const,
            riskScore: 90,
            reasons: [],
            categories: [],
            requiresApproval: true,
          },
          new Date('2026-03-02T10:00:00.000Z'),
        ),
      ),
    ];
    await rm.applyBatch(batch);
    await stale.applyBatch(batch);
    expect(await rm.guardrailCounts('t1', 'p', '2026-03-01T00:00:00.000Z', '2026-03-04T00:00:00.000Z')).toEqual({
      total: 3,
      blocked: 1,
      approvalRequired: 2,
      skillVetting: 1,
      runtimeAuthorization: 2,
      daily: [
        { date: '2026-03-01', total: 1, blocked: 1, approvalRequired: 1 },
        { date: '2026-03-02', total: 2, blocked: 0, approvalRequired: 1 },
      ],
    });
    expect((await rm.guardrailCounts('t1', 'p', '2026-03-02T00:00:00.000Z', '2026-03-05T00:00:00.000Z')).total).toBe(3);
    expect((await rm.guardrailCounts('t3', 'p', '2026-03-01T00:00:00.000Z', '2026-03-05T00:00:00.000Z')).total).toBe(0);
    expect(await rm.getGuardrailDecision('t1', 'g3')).toMatchObject({ action: 'flag', request: { tool: 'shell', nested: { a: [1, { b: 2 }] } } });
    expect(await rm.getGuardrailDecision('t2', 'g3')).toBeNull();
  });

  it('answers the vetting a skill is pinned to: the newest accepted one, else the first, per tenant and project', async () => {
    await rm.applyBatch(skillPinBatch(5000));
    for (const [tenantId, projectId, skillId, pin] of SKILL_PIN_CASES) {
      const doc = await rm.getSkillPin(tenantId, projectId, skillId);
      expect({ tenantId, projectId, skillId, pin: doc?.decisionId ?? null }).toEqual({ tenantId, projectId, skillId, pin });
    }
    expect((await rm.getSkillPin('t1', 'p', 'sk-a'))?.skill).toEqual({ skillId: 'sk-a', contentHash: 'sha256:a-2' });
  });

  it("lists a session's action authorizations, newest first, at most limit, per tenant", async () => {
    await rm.applyBatch(sessionActionBatch(6000));
    for (const [tenantId, sessionId, limit, ids] of SESSION_ACTION_CASES) {
      const got = (await rm.listSessionActions(tenantId, sessionId, limit)).map((a) => a.decisionId);
      expect({ tenantId, sessionId, limit, got }).toEqual({ tenantId, sessionId, limit, got: ids });
    }
    expect((await rm.listSessionActions('t1', 's1', 1))[0]).toEqual(SESSION_ACTION_S1_NEWEST);
  });

  it('refuses a page past the result window with a 422 rather than a node error', async () => {
    const past = rm.listDecisions('t1', { limit: 50, offset: 9_990 });
    await expect(past).rejects.toBeInstanceOf(DomainError);
    await expect(past).rejects.toMatchObject({ kind: 'invalid' });
    await expect(rm.listDecisions('t1', { limit: 10, offset: 9_990 })).resolves.toEqual([]);
  });
});
