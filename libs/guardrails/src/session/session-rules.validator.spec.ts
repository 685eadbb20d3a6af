import { domainFailure } from '@cds/testing';
import { validateGuardrailPolicy, validateGuardrailPolicyOverride } from '../guardrail-policy.validator';

const BASE = { sensitivePathPrefixes: [], networkAllowlist: [], blockShellPatterns: [], requireApprovalScore: 50 };
const rule = (over: object = {}) => ({ name: 'r', steps: [{ fact: 'secret_read' }, { fact: 'network_egress' }], action: 'flag', ...over });
const message = (sessionRules: unknown) => domainFailure(() => validateGuardrailPolicyOverride({ sessionRules }));

describe('sessionRules validation', () => {
  it('accepts the documented grammar, a string where a list is allowed, and keeps it on a stored policy', () => {
    const rules = [rule(), { name: 'b', steps: [{ actionType: 'database_query' }, { command: 'curl *', targetPath: '/srv/*' }], within: 10, action: 'block' }];
    expect(validateGuardrailPolicy({ ...BASE, sessionRules: rules }).sessionRules).toEqual([
      { name: 'r', steps: [{ fact: ['secret_read'] }, { fact: ['network_egress'] }], action: 'flag' },
      { name: 'b', steps: [{ actionType: ['database_query'] }, { command: 'curl *', targetPath: '/srv/*' }], within: 10, action: 'block' },
    ]);
  });

  it.each([
    ['{}', {}, 'sessionRules must be an array of rules'],
    ['a rule that is not an object', ['x'], 'sessionRules[0] must be a JSON object'],
    ['an unknown rule field', [rule({ when: 'later' })], 'sessionRules[0] has unknown field "when"'],
    ['a regular expression', [rule({ steps: [{ regex: '(a+)+$' }, { fact: 'exec' }] })], 'sessionRules[0].steps[0] has unknown field "regex"'],
    ['one step', [rule({ steps: [{ fact: 'exec' }] })], 'sessionRules[0].steps must hold 2 to 8 steps (got 1)'],
    [
      'an empty step',
      [rule({ steps: [{}, { fact: 'exec' }] })],
      'sessionRules[0].steps[0] must set at least one of actionType, category, fact, command, targetPath',
    ],
    ['an unknown fact', [rule({ steps: [{ fact: 'telepathy' }, { fact: 'exec' }] })], 'sessionRules[0].steps[0].fact[0] "telepathy" is not a known value'],
    [
      'an unknown actionType',
      [rule({ steps: [{ actionType: ['exec', 'EXEC'] }, { fact: 'exec' }] })],
      'sessionRules[0].steps[0].actionType[1] "EXEC" is not a known value',
    ],
    [
      'a bad glob',
      [rule({ steps: [{ command: 'rm [abc' }, { fact: 'exec' }] })],
      'sessionRules[0].steps[0].command "rm [abc" is not a valid glob pattern: unbalanced "[" at position 4',
    ],
    ['a nested step', [rule({ steps: [{ command: { any: ['a'] } }, { fact: 'exec' }] })], 'sessionRules[0].steps[0].command must be a string'],
    ['no action', [rule({ action: 'maybe' })], 'sessionRules[0].action must be "flag" or "block"'],
    ['a wide window', [rule({ within: 1e9 })], 'sessionRules[0].within must be an integer from 1 to 200'],
    ['a duplicate name', [rule(), rule()], 'sessionRules has two rules named "r"'],
    ['too many rules', Array.from({ length: 33 }, (_x, i) => rule({ name: `r${i}` })), 'sessionRules has too many rules (33, at most 32)'],
  ])('refuses %s', (_what, rules, text) => {
    expect(message(rules)).toMatchObject({ kind: 'invalid', code: 'INVALID_GUARDRAIL_POLICY', message: text });
  });

  it('refuses hostile rule sets (deep, huge, pathological patterns)', () => {
    let deep: unknown = { fact: 'exec' };
    for (let i = 0; i < 10_000; i++) deep = { steps: [deep] };
    const hostile: unknown[] = [
      [rule({ steps: [deep, { fact: 'exec' }] })],
      [deep],
      Array.from({ length: 100_000 }, () => rule()),
      [rule({ name: 'x'.repeat(1_000_000) })],
      [rule({ steps: Array.from({ length: 100_000 }, () => ({ fact: 'exec' })) })],
      [rule({ steps: [{ command: `${'*a'.repeat(128)}` }, { command: '(a|aa)+$'.repeat(40) }] })],
    ];
    for (const rules of hostile) expect(message(rules).code).toBe('INVALID_GUARDRAIL_POLICY');
  });
});
