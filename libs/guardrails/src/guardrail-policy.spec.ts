import { domainFailure } from '@cds/testing';
import { DEFAULT_GUARDRAIL_POLICY, ProjectGuardrailPolicy, resolvePolicy, resolvePolicyWithOrigin } from './guardrail-policy';
import { validateGuardrailPolicy, validateGuardrailPolicyOverride } from './guardrail-policy.validator';

const project: ProjectGuardrailPolicy = {
  sensitivePathPrefixes: ['/srv/secrets'],
  networkAllowlist: ['*.corp.example'],
  blockShellPatterns: ['docker *'],
  requireApprovalScore: 30,
};

const errorOf = domainFailure;

describe('resolvePolicy', () => {
  it('uses the built-in defaults when neither request nor project sets a policy', () => {
    expect(resolvePolicyWithOrigin(undefined, undefined)).toEqual({
      policy: { ...DEFAULT_GUARDRAIL_POLICY },
      origin: { sensitivePathPrefixes: 'default', networkAllowlist: 'default', blockShellPatterns: 'default', requireApprovalScore: 'default' },
    });
  });

  it("uses the project's policy when the request has none", () => {
    expect(resolvePolicy(undefined, project)).toEqual(project);
  });

  it('lets the request replace the fields it names; the rest come from the project', () => {
    const r = resolvePolicyWithOrigin({ blockShellPatterns: [], requireApprovalScore: 90 }, project);
    expect(r.policy).toEqual({ ...project, blockShellPatterns: [], requireApprovalScore: 90 });
    expect(r.origin).toEqual({ sensitivePathPrefixes: 'project', networkAllowlist: 'project', blockShellPatterns: 'request', requireApprovalScore: 'request' });
  });

  it('falls back to the defaults for fields a partial request leaves out when there is no project policy', () => {
    const r = resolvePolicy({ networkAllowlist: ['*'] }, null);
    expect(r).toEqual({ ...DEFAULT_GUARDRAIL_POLICY, networkAllowlist: ['*'] });
  });

  it('treats an empty request policy as no override and never aliases its inputs', () => {
    const r = resolvePolicy({}, project);
    expect(r).toEqual(project);
    r.blockShellPatterns.push('x');
    expect(project.blockShellPatterns).toEqual(['docker *']);
  });

  it('without a request policy, resolves each project policy object once and shares the answer, frozen', () => {
    const own = { ...project, blockShellPatterns: ['make *'] };
    const first = resolvePolicyWithOrigin(null, own);
    expect(resolvePolicyWithOrigin(undefined, own)).toBe(first);
    expect(resolvePolicyWithOrigin(null, { ...own })).not.toBe(first);
    expect(resolvePolicyWithOrigin(null, null)).toBe(resolvePolicyWithOrigin(undefined, undefined));
    expect(Object.isFrozen(first.policy) && Object.isFrozen(first.policy.blockShellPatterns) && Object.isFrozen(first.origin)).toBe(true);
    expect(first.policy.blockShellPatterns).not.toBe(own.blockShellPatterns);
    expect(resolvePolicyWithOrigin({ requireApprovalScore: 1 }, own)).not.toBe(resolvePolicyWithOrigin({ requireApprovalScore: 1 }, own));
  });
});

describe('validateGuardrailPolicy', () => {
  it('accepts a full policy and the defaults', () => {
    expect(validateGuardrailPolicy(project)).toEqual(project);
    expect(validateGuardrailPolicy({ ...DEFAULT_GUARDRAIL_POLICY })).toEqual(DEFAULT_GUARDRAIL_POLICY);
  });

  it('requires every field on a full policy but not on an override', () => {
    expect(errorOf(() => validateGuardrailPolicy({ requireApprovalScore: 10 })).message).toBe(
      'policy is missing sensitivePathPrefixes, networkAllowlist, blockShellPatterns',
    );
    expect(validateGuardrailPolicyOverride({ requireApprovalScore: 10 })).toEqual({ requireApprovalScore: 10 });
  });

  it.each([
    [null, 'policy must be a JSON object'],
    [[], 'policy must be a JSON object'],
    [{ requireApprovalScor: 5 }, 'policy has unknown field "requireApprovalScor"'],
    [{ sensitivePathPrefixes: '/etc' }, 'sensitivePathPrefixes must be an array of strings'],
    [{ sensitivePathPrefixes: [42] }, 'sensitivePathPrefixes[0] must be a string'],
    [{ sensitivePathPrefixes: ['etc'] }, 'sensitivePathPrefixes[0] "etc" must be an absolute path or start with ~/ or $HOME/'],
    [
      { networkAllowlist: ['https://github.com'] },
      'networkAllowlist[0] "https://github.com" must be a bare host such as "github.com" or "*.example.com" (no scheme, port or path)',
    ],
    [{ networkAllowlist: ['api.*.example'] }, 'networkAllowlist[0] "api.*.example" may only use "*" as a whole entry or as a leading "*." label'],
    [{ networkAllowlist: ['not a host'] }, 'networkAllowlist[0] "not a host" is not a valid host name or IP address'],
    [{ blockShellPatterns: ['rm [abc'] }, 'blockShellPatterns[0] "rm [abc" is not a valid glob pattern: unbalanced "[" at position 4'],
    [{ blockShellPatterns: [''] }, 'blockShellPatterns[0] must not be empty'],
    [{ blockShellPatterns: ['a\u0007'] }, 'blockShellPatterns[0] contains control characters'],
    [{ blockShellPatterns: ['x'.repeat(257)] }, 'blockShellPatterns[0] is too long (257 characters, at most 256)'],
    [{ blockShellPatterns: Array(101).fill('x') }, 'blockShellPatterns has too many entries (101, at most 100)'],
    [{ requireApprovalScore: '50' }, 'requireApprovalScore must be a number'],
    [{ requireApprovalScore: 101 }, 'requireApprovalScore must be between 0 and 100 (got 101)'],
    [{ requireApprovalScore: Number.NaN }, 'requireApprovalScore must be a number'],
    [{ systemZones: ['/srv'] }, 'systemZones must be a JSON object'],
    [{ systemZones: { protect: ['/srv'] } }, 'systemZones has unknown field "protect"'],
    [{ systemZones: { add: '/srv' } }, 'systemZones.add must be an array of strings'],
    [{ systemZones: { exempt: ['usr/local'] } }, 'systemZones.exempt[0] "usr/local" must be an absolute path or start with ~/ or $HOME/'],
    [{ systemZones: { add: Array(65).fill('/srv') } }, 'systemZones.add has too many entries (65, at most 64)'],
  ])('rejects %j: %s', (input, message) => {
    const e = errorOf(() => validateGuardrailPolicyOverride(input));
    expect(e).toMatchObject({ kind: 'invalid', code: 'INVALID_GUARDRAIL_POLICY', message });
  });

  it('accepts wildcard, IP and IPv6 allowlist entries and home prefixes', () => {
    const ok = {
      networkAllowlist: ['*', '*.example.com', '10.0.0.1', '::1', '[2001:db8::1]'],
      sensitivePathPrefixes: ['~', '~/.kube', '$HOME/.aws', 'C:\\Users'],
    };
    expect(validateGuardrailPolicyOverride(ok)).toEqual(ok);
  });

  it('accepts systemZones, optional everywhere, with both lists filled in', () => {
    expect(validateGuardrailPolicy({ ...project, systemZones: { exempt: ['/usr/local'] } })).toEqual({
      ...project,
      systemZones: { add: [], exempt: ['/usr/local'] },
    });
    expect(validateGuardrailPolicyOverride({ systemZones: {} })).toEqual({ systemZones: { add: [], exempt: [] } });
  });
});

describe('systemZones precedence', () => {
  it('comes from the request, else the project, and is absent when neither sets it', () => {
    const zones = { add: ['/srv/app'], exempt: [] };
    expect(resolvePolicyWithOrigin(undefined, project).policy.systemZones).toBeUndefined();
    const byProject = resolvePolicyWithOrigin(undefined, { ...project, systemZones: zones });
    expect([byProject.policy.systemZones, byProject.origin.systemZones]).toEqual([zones, 'project']);
    const byRequest = resolvePolicyWithOrigin({ systemZones: { add: [], exempt: ['/opt'] } }, { ...project, systemZones: zones });
    expect([byRequest.policy.systemZones, byRequest.origin.systemZones]).toEqual([{ add: [], exempt: ['/opt'] }, 'request']);
  });
});
