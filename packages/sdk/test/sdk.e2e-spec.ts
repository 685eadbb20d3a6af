import { randomUUID } from 'node:crypto';
import { RunningService, startService } from '@cds/testing';
import { CdsClient } from '../src/cds.client';
import { CdsError } from '../src/cds.error';
import { SignedReceiver } from './signed-receiver';

const RULES = `name: SDK rules
categories:
  hate: { threshold: 0.6, action: block }
  harassment: { threshold: 0.5, action: warn }
  violence: { threshold: 0.5, action: flag }
`;
/** Every decision triggers hate (score >= 0): all of them become blocks. */
const EVERYTHING_BLOCKS = `name: Everything blocks
categories:
  hate: { threshold: 0, action: block }
`;

async function failure(p: Promise<unknown>): Promise<CdsError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof CdsError) return err;
    throw err;
  }
  throw new Error('expected a CdsError');
}

describe('@cds/sdk against the real service', () => {
  let svc: RunningService;
  let cds: CdsClient;
  let receiver: SignedReceiver;

  beforeAll(async () => {
    svc = await startService({ env: { EGRESS_ALLOW_LOOPBACK: 'true', WEBHOOK_RETRY_SCHEDULE: '0,200ms,400ms' } });
    cds = new CdsClient({ baseUrl: svc.baseUrl, apiKey: svc.adminKey });
    receiver = await SignedReceiver.start();
  });
  afterAll(async () => {
    await svc?.stop();
    await receiver?.close();
  });

  it('saves, reads and lists a policy', async () => {
    const saved = await cds.savePolicy('sdk-rules', RULES);
    expect(saved).toMatchObject({ policyId: 'sdk-rules', name: 'SDK rules', builtIn: false, yamlContent: RULES });
    expect(saved.categories.hate).toMatchObject({ threshold: 0.6, action: 'block' });
    expect(await cds.getPolicy('sdk-rules')).toMatchObject({ policyId: 'sdk-rules', version: saved.version });
    const { policies } = await cds.listPolicies();
    expect(policies.map((p) => p.policyId)).toEqual(expect.arrayContaining(['sdk-rules', 'default']));
  });

  it('checks a text, reads the decision back, lists, replays and reproduces it', async () => {
    const userId = `sdk-${randomUUID()}`;
    const d = await cds.check({ content: 'have a nice day', policyId: 'sdk-rules', metadata: { userId } });
    expect(d).toMatchObject({ safe: true, action: 'allow', provider: 'local' });
    expect(d.categories.map((c) => c.category)).toEqual(expect.arrayContaining(['hate', 'harassment', 'violence']));

    const stored = await cds.getDecision(d.decisionId);
    expect(stored).toMatchObject({ decisionId: d.decisionId, content: 'have a nice day', policyId: 'sdk-rules', action: 'allow', metadata: { userId } });
    const { decisions } = await cds.listDecisions({ userId, policyId: 'sdk-rules' });
    expect(decisions.map((x) => x.decisionId)).toEqual([d.decisionId]);

    const replayed = await cds.replayDecision(d.decisionId, 'default');
    expect(replayed).toMatchObject({ decisionId: d.decisionId, replayed: true, policyId: 'default', original: { policyId: 'sdk-rules', action: 'allow' } });
    const { curl } = await cds.decisionCurl(d.decisionId);
    expect(curl).toContain(`${svc.baseUrl}/v1/check`);
    expect(curl).toContain('have a nice day');
  });

  it('a check whose answer was lost is retried with the same Idempotency-Key: one decision', async () => {
    const keys: (string | null)[] = [];
    const losesFirstAnswer: typeof fetch = async (input, init) => {
      keys.push(new Headers(init?.headers).get('idempotency-key'));
      const res = await fetch(input, init);
      if (keys.length === 1) {
        await res.text(); // the service decided; the client never hears of it
        throw new TypeError('fetch failed', { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });
      }
      return res;
    };
    const lossy = new CdsClient({ baseUrl: svc.baseUrl, apiKey: svc.adminKey, fetch: losesFirstAnswer, baseDelayMs: 1 });
    const userId = `sdk-${randomUUID()}`;
    const d = await lossy.check({ content: 'sent twice, decided once', policyId: 'default', metadata: { userId } });
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBeTruthy();
    expect(keys[1]).toBe(keys[0]);
    const { decisions } = await cds.listDecisions({ userId });
    expect(decisions.map((x) => x.decisionId)).toEqual([d.decisionId]);
  });

  it('dry-runs a stored and an unsaved policy; nothing is recorded', async () => {
    expect(await cds.dryRun({ policyId: 'sdk-rules', mockScores: { hate: 0.9 } })).toMatchObject({ dryRun: true, policyId: 'sdk-rules', action: 'block' });
    expect(await cds.dryRun({ policy: RULES, mockScores: { harassment: 0.55 } })).toMatchObject({ dryRun: true, policyId: null, action: 'warn' });
    expect(await cds.dryRun({ policy: RULES, mockSignals: { hate_threat: 0.8 } })).toMatchObject({ action: 'block' });
  });

  it("reports a candidate policy's impact on the decisions made", async () => {
    await cds.check({ content: 'a second decision for the report', policyId: 'sdk-rules' });
    const report = await cds.policyImpact('sdk-rules', { yamlContent: EVERYTHING_BLOCKS, from: new Date(Date.now() - 3_600_000).toISOString() });
    expect(report).toMatchObject({ policyId: 'sdk-rules', candidate: { name: 'Everything blocks' }, unchanged: 0 });
    expect(report.evaluated).toBeGreaterThanOrEqual(2);
    expect(report.changes[0]).toMatchObject({ from: 'allow', to: 'block', count: report.evaluated });
    expect(report.actions.after.block).toBe(report.evaluated);
  });

  it('checks a batch and walks the decisions with the iterator', async () => {
    const batch = await cds.batchCheck({
      policyId: 'sdk-rules',
      items: [
        { id: 'a', content: 'one' },
        { id: 'b', content: 'two' },
        { id: 'c', content: '' },
      ],
    });
    expect(batch.items.map((i) => i.id)).toEqual(['a', 'b', 'c']);
    expect(batch.items[2]).toMatchObject({ id: 'c', error: { code: expect.any(String) } });
    const ids = batch.items.flatMap((i) => ('decisionId' in i ? [i.decisionId] : []));
    expect(ids).toHaveLength(2);
    const walked: string[] = [];
    for await (const d of cds.iterateDecisions({ policyId: 'sdk-rules', limit: 2 })) walked.push(d.decisionId);
    expect(new Set(walked).size).toBe(walked.length);
    expect(walked).toEqual(expect.arrayContaining(ids));
    const { decisions } = await cds.listDecisions({ policyId: 'sdk-rules', limit: 1000 });
    expect(walked).toEqual(decisions.map((d) => d.decisionId));
  });

  it('authorizes agent actions and manages the project guardrail policy', async () => {
    const blocked = await cds.authorizeAction({ actionType: 'exec', command: 'rm -rf /' });
    expect(blocked).toMatchObject({ action: 'block', requiresApproval: true });
    expect(blocked.categories).toContain('dangerous_command');
    expect(await cds.authorizeAction({ actionType: 'file_read', targetPath: './src/index.ts' })).toMatchObject({ action: 'allow', requiresApproval: false });

    const projectId = `sdk-${randomUUID()}`;
    expect(await failure(cds.getGuardrailPolicy(projectId))).toMatchObject({ status: 404, code: 'GUARDRAIL_POLICY_NOT_FOUND' });
    const policy = { sensitivePathPrefixes: ['/etc'], networkAllowlist: ['registry.npmjs.org'], blockShellPatterns: ['curl * | sh'], requireApprovalScore: 40 };
    expect(await cds.putGuardrailPolicy(projectId, policy)).toEqual({ projectId, policy });
    expect(await cds.getGuardrailPolicy(projectId)).toEqual({ projectId, policy });
    const { history } = await cds.guardrailPolicyHistory(projectId);
    expect(history).toHaveLength(1);
    expect(await cds.guardrailMetrics(projectId, 1)).toMatchObject({ projectId, days: 1, total: 0 });
  });

  it('turns error answers into CdsError with their code', async () => {
    const notFound = await failure(cds.getPolicy('no-such-policy'));
    expect(notFound).toMatchObject({ status: 404, code: 'POLICY_NOT_FOUND', method: 'GET', path: '/v1/policies/no-such-policy' });
    expect(typeof notFound.error).toBe('string');
    expect(typeof notFound.details).toBe('string');
    expect(await failure(cds.getDecision(randomUUID()))).toMatchObject({ status: 404, code: 'DECISION_NOT_FOUND' });
    expect(await failure(cds.check({ content: 'x', policyId: 'no-such-policy' }))).toMatchObject({ status: 404, code: 'POLICY_NOT_FOUND' });
    expect(await failure(cds.check({ content: 'x', policyId: 'default', language: 'xx' }))).toMatchObject({ status: 422, code: 'UNSUPPORTED_LANGUAGE' });
    const anonymous = new CdsClient({ baseUrl: svc.baseUrl, apiKey: 'not-a-key' });
    expect(await failure(anonymous.listPolicies())).toMatchObject({ status: 401, code: 'INVALID_API_KEY' });
  });

  it('uploads a video as multipart: the service reads the fields and probes the file', async () => {
    const notAVideo = Buffer.from('these bytes are no video at all '.repeat(64));
    const refused = await failure(cds.videoUpload(notAVideo, { policyId: 'default', maxDurationSeconds: 30, filename: 'clip.mp4' }));
    expect(refused).toMatchObject({ status: 422, code: 'INVALID_VIDEO' });
    expect(await failure(cds.videoUpload(notAVideo, { policyId: 'no-such-policy' }))).toMatchObject({ status: 404, code: 'POLICY_NOT_FOUND' });
    expect(await failure(cds.videoStatus(randomUUID()))).toMatchObject({ status: 404, code: 'VIDEO_NOT_FOUND' });
  });

  it('registers webhooks whose signed deliveries verifyWebhookSignature accepts (and refuses under the wrong secret)', async () => {
    const hook = await cds.createWebhook({ url: `${receiver.base}/good`, events: ['decision.created'], description: 'sdk e2e' });
    expect(hook.secret).toMatch(/^whsec_/);
    receiver.expect('/good', hook.secret);

    const test = await cds.testWebhook(hook.id, 'decision.created');
    expect(test).toMatchObject({ success: true, responseCode: 200 });
    const arrived = await receiver.next((d) => d.path === '/good' && d.body.id === test.eventId);
    expect(arrived).toMatchObject({ verified: true, body: { type: 'decision.created', data: { test: true } } });

    const d = await cds.check({ content: 'a decision someone listens for', policyId: 'default' });
    const event = await receiver.next((x) => x.path === '/good' && x.body.data.decisionId === d.decisionId);
    expect(event).toMatchObject({ verified: true, body: { type: 'decision.created', data: { id: d.decisionId, action: d.action } } });

    const other = await cds.createWebhook({ url: `${receiver.base}/bad`, events: ['decision.blocked'] });
    receiver.expect('/bad', `${other.secret}-but-not-quite`);
    expect(await cds.testWebhook(other.id, 'decision.blocked')).toMatchObject({ success: false, responseCode: 401 });

    const { deliveries } = await cds.listWebhookDeliveries(hook.id, 10);
    expect(deliveries.find((x) => x.eventId === test.eventId)).toMatchObject({ status: 'succeeded', responseCode: 200, test: true });
    expect((await cds.listWebhooks()).webhooks.map((w) => w.id)).toEqual(expect.arrayContaining([hook.id, other.id]));
    expect(await cds.updateWebhook(other.id, { enabled: false })).toMatchObject({ id: other.id, enabled: false });
    expect(await cds.deleteWebhook(other.id)).toEqual({ id: other.id, deleted: true });
    expect(await failure(cds.getWebhook(other.id))).toMatchObject({ status: 404, code: 'WEBHOOK_NOT_FOUND' });
  });
});
