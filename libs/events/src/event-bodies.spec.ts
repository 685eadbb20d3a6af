import { envelope } from './envelope';
import { validateEvent } from './event-schema';
import { GuardrailDecidedV1 } from './event-bodies';

const decided = (): GuardrailDecidedV1 => ({
  decisionId: 'd1',
  projectId: null,
  kind: 'action_authorization',
  action: 'block',
  riskScore: 90,
  reasons: ['r'],
  categories: ['system_zone'],
  requiresApproval: false,
  request: { actionType: 'shell_command' },
  policy: { sensitivePathPrefixes: [], networkAllowlist: [], blockShellPatterns: [], requireApprovalScore: 70 },
  policyOrigin: {},
  decidedBy: 'key:k1',
  latency: 1,
});
const event = (data: object) => envelope('guardrail.decided', 1, 'default', 'd1', data);

/** An event body is validated by the checks it is declared with (event-bodies.ts). */
describe('an event body, checked by its declaration', () => {
  it('is valid with its required fields, and with its optional ones', () => {
    expect(() => validateEvent(event(decided()))).not.toThrow();
    const skill = { skillId: 's', contentHash: 'h' };
    const session = { sessionId: 's', facts: [{ kind: 'run', value: 'x' }] };
    expect(() =>
      validateEvent(event({ ...decided(), skill, session, promptModel: { prompt_injection: 0, jailbreak: 0, threshold: 0.5, model: 'm' } })),
    ).not.toThrow();
  });

  it('names the first required field that is missing or of the wrong type', () => {
    for (const field of Object.keys(decided())) {
      const { [field]: _, ...without } = decided() as unknown as Record<string, unknown>;
      expect(() => validateEvent(event(without))).toThrow(`guardrail.decided: field data.${field} is missing or has the wrong type`);
    }
    expect(() => validateEvent(event({ ...decided(), riskScore: Number.NaN }))).toThrow('data.riskScore');
    expect(() => validateEvent(event({ ...decided(), projectId: 3 }))).toThrow('data.projectId');
  });

  it('refuses an optional field that is present with the wrong shape', () => {
    expect(() => validateEvent(event({ ...decided(), skill: { skillId: 's' } }))).toThrow('data.skill');
    expect(() => validateEvent(event({ ...decided(), session: { sessionId: 's', facts: [{ kind: 'run' }] } }))).toThrow('data.session');
  });

  it('checks a listed value against its list', () => {
    const attempted = {
      deliveryId: 'x',
      webhookId: null,
      eventId: 'e',
      eventType: 'decision.created',
      attempt: 1,
      status: 'succeeded',
      url: 'http://h',
      responseCode: 200,
      durationMs: 3,
      error: null,
      nextAttemptAt: null,
      test: false,
    };
    const attempt = (data: object) => envelope('webhook.delivery.attempted', 1, 'default', 'x', data);
    expect(() => validateEvent(attempt(attempted))).not.toThrow();
    expect(() => validateEvent(attempt({ ...attempted, status: 'pending' }))).toThrow('data.status');
  });
});
