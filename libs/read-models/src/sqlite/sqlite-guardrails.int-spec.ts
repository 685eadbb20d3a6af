import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DomainEvent, envelope, GuardrailDecidedV1 } from '@cds/events';
import { ProjectedEvent } from '../read-models.port';
import { SqliteReadModels } from './sqlite-read-models.adapter';
import { SKILL_PIN_CASES, skillPinBatch } from '../skill-pins.fixtures';
import { SESSION_ACTION_CASES, SESSION_ACTION_S1_NEWEST, sessionActionBatch } from '../session-actions.fixtures';

const open = () => SqliteReadModels.open(fs.mkdtempSync(path.join(os.tmpdir(), 'cds-rm-g-')));
const POLICY = { sensitivePathPrefixes: ['/etc'], networkAllowlist: [], blockShellPatterns: [], requireApprovalScore: 50 };
let offset = 0;
const at = (event: DomainEvent): ProjectedEvent => ({ topic: 'guardrails', partition: 0, offset: offset++, event });

function decided(
  tenantId: string,
  projectId: string,
  when: string,
  action: GuardrailDecidedV1['action'],
  requiresApproval: boolean,
  kind: GuardrailDecidedV1['kind'] = 'action_authorization',
) {
  const decisionId = `${tenantId}-${projectId}-${offset}`;
  return envelope(
    'guardrail.decided',
    1,
    tenantId,
    decisionId,
    {
      decisionId,
      projectId,
      kind,
      action,
      riskScore: 10,
      reasons: ['r'],
      categories: ['c'],
      requiresApproval,
      request: {},
      policy: POLICY,
      policyOrigin: {},
      decidedBy: 'key:k',
      latency: 0.1,
    },
    new Date(when),
  );
}

function version(tenantId: string, projectId: string, v: string, score: number, restoredVersion: string | null = null) {
  return envelope(restoredVersion ? 'guardrail.policy.rolled_back' : 'guardrail.policy.updated', 1, tenantId, `${tenantId}/${projectId}`, {
    projectId,
    version: v,
    policy: { ...POLICY, requireApprovalScore: score },
    updatedBy: 'key:k',
    restoredVersion,
  });
}

describe('SqliteReadModels: guardrails', () => {
  it('serves the newest policy version by log position, the history newest first, per tenant', async () => {
    const rm = open();
    const batch = [
      at(version('t1', 'p', 'v-a', 10)),
      at(version('t1', 'p', 'v-b', 20)),
      at(version('t2', 'p', 'v-c', 30)),
      at(version('t1', 'p', 'v-d', 10, 'v-a')),
    ];
    await rm.applyBatch(batch);
    await rm.applyBatch(batch); // a replay adds nothing
    expect((await rm.getGuardrailPolicy('t1', 'p'))?.version).toBe('v-d');
    expect((await rm.listGuardrailPolicyHistory('t1', 'p')).map((h) => [h.version, h.policy.requireApprovalScore, h.restoredVersion])).toEqual([
      ['v-d', 10, 'v-a'],
      ['v-b', 20, null],
      ['v-a', 10, null],
    ]);
    expect((await rm.getGuardrailPolicy('t2', 'p'))?.policy.requireApprovalScore).toBe(30);
    expect(await rm.getGuardrailPolicyVersion('t2', 'p', 'v-a')).toBeNull();
    expect(await rm.getGuardrailPolicy('t3', 'p')).toBeNull();
    await rm.close();
  });

  it('keeps the current version (or its absence) in memory until the projection adds one, on either thread', async () => {
    const rm = open();
    try {
      const encoded = (e: ProjectedEvent) => ({ topic: e.topic, partition: e.partition, offset: e.offset, json: JSON.stringify(e.event) });
      expect(await rm.getGuardrailPolicy('t1', 'p')).toBeNull();
      await rm.applyBatch([at(version('t1', 'p', 'v-a', 10)), at(version('t1', 'q', 'v-q', 40))]);
      const first = await rm.getGuardrailPolicy('t1', 'p');
      expect(first?.version).toBe('v-a');
      expect(await rm.getGuardrailPolicy('t1', 'p')).toBe(first);
      await rm.applyBatch([at(decided('t1', 'p', '2026-03-01T10:00:00.000Z', 'block', true))]);
      await rm.applyEncoded([encoded(at(decided('t1', 'p', '2026-03-01T11:00:00.000Z', 'allow', false)))]);
      expect(await rm.getGuardrailPolicy('t1', 'p')).toBe(first);

      expect(await rm.getGuardrailPolicy('t2', 'p')).toBeNull();
      await rm.applyEncoded([encoded(at(version('t1', 'p', 'v-b', 20))), encoded(at(version('t2', 'p', 'v-c', 30)))]);
      expect((await rm.getGuardrailPolicy('t1', 'p'))?.version).toBe('v-b');
      expect((await rm.getGuardrailPolicy('t2', 'p'))?.version).toBe('v-c');
      expect((await rm.getGuardrailPolicy('t1', 'q'))?.version).toBe('v-q');
    } finally {
      await rm.close(); // ends the writer thread, whatever failed
    }
  });

  it('counts decisions per UTC day inside [from, to), per tenant and project, once per decision', async () => {
    const rm = open();
    const batch = [
      at(decided('t1', 'p', '2026-03-01T23:59:59.999Z', 'block', true)),
      at(decided('t1', 'p', '2026-03-02T00:00:00.000Z', 'allow', false, 'skill_vetting')),
      at(decided('t1', 'p', '2026-03-02T10:00:00.000Z', 'flag', true)),
      at(decided('t1', 'p', '2026-03-04T00:00:00.000Z', 'block', true)), // at `to`: excluded
      at(decided('t1', 'other', '2026-03-02T10:00:00.000Z', 'block', true)),
      at(decided('t2', 'p', '2026-03-02T10:00:00.000Z', 'block', true)),
      at(
        envelope(
          'agent.guardrail.blocked',
          1,
          't1',
          'x',
          {
            decisionId: 'x',
            projectId: 'p',
            kind: 'action_authorization' as const,
            action: 'block',
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
    await rm.applyBatch(batch);
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
    const one = batch[2].event as any;
    expect((await rm.getGuardrailDecision('t1', one.data.decisionId))?.action).toBe('flag');
    expect(await rm.getGuardrailDecision('t2', one.data.decisionId)).toBeNull();
    await rm.close();
  });

  it('answers the vetting a skill is pinned to: the newest accepted one, else the first, per tenant and project', async () => {
    const rm = open();
    await rm.applyBatch(skillPinBatch(1000));
    for (const [tenantId, projectId, skillId, pin] of SKILL_PIN_CASES) {
      const doc = await rm.getSkillPin(tenantId, projectId, skillId);
      expect({ tenantId, projectId, skillId, pin: doc?.decisionId ?? null }).toEqual({ tenantId, projectId, skillId, pin });
    }
    expect((await rm.getSkillPin('t1', 'p', 'sk-a'))?.skill).toEqual({ skillId: 'sk-a', contentHash: 'sha256:a-2' });
    await rm.close();
  });

  it("lists a session's action authorizations, newest first, at most limit, per tenant", async () => {
    const rm = open();
    await rm.applyBatch(sessionActionBatch(2000));
    for (const [tenantId, sessionId, limit, ids] of SESSION_ACTION_CASES) {
      const got = (await rm.listSessionActions(tenantId, sessionId, limit)).map((a) => a.decisionId);
      expect({ tenantId, sessionId, limit, got }).toEqual({ tenantId, sessionId, limit, got: ids });
    }
    expect((await rm.listSessionActions('t1', 's1', 1))[0]).toEqual(SESSION_ACTION_S1_NEWEST);
    await rm.close();
  });
});
