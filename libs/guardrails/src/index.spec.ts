import * as guardrails from '@cds/guardrails';

describe('@cds/guardrails public surface', () => {
  it('exports the engine, the policy helpers, the validators and the documented values, nothing else', () => {
    expect(Object.keys(guardrails).sort()).toEqual(
      [
        'ACTION_THRESHOLDS',
        'ACTION_TYPES',
        'DEFAULT_GUARDRAIL_POLICY',
        'GUARDRAIL_ACTIONS',
        'GUARDRAIL_CATEGORIES',
        'GUARDRAIL_CATEGORY_GROUPS',
        'GUARDRAIL_ERROR_CODES',
        'GUARDRAIL_INPUT_LIMITS',
        'HIGH_PRIVILEGE_PERMISSIONS',
        'MAINTAINER_REPUTATIONS',
        'MAX_RISK_SCORE',
        'NETWORK_ACTION_TYPES',
        'PERMISSIONS',
        'PLACEHOLDER_HOME',
        'PLACEHOLDER_WORKSPACE',
        'PROMPT_MODEL_POINTS',
        'SENSITIVE_ACTION_TYPES',
        'SKILL_SOURCES',
        'actionForScore',
        'authorizeAction',
        'authorizeSessionAction',
        'clonePolicy',
        'promptAttackRuleScores',
        'resolvePolicy',
        'resolvePolicyWithOrigin',
        'skillContentHash',
        'validateActionAuthorizeInput',
        'validateGuardrailPolicy',
        'validateGuardrailPolicyOverride',
        'validateSkillVettingInput',
        'vetSkill',
      ].sort(),
    );
  });

  it('runs end to end from raw request bodies, as the endpoint will', () => {
    const body: unknown = { projectId: 'p1', actionType: 'exec', command: "sudo bash -c 'rm -rf /'", policy: { requireApprovalScore: 90 } };
    const input = guardrails.validateActionAuthorizeInput(body);
    const override = guardrails.validateGuardrailPolicyOverride((body as { policy: unknown }).policy);
    const verdict = guardrails.authorizeAction(input, guardrails.resolvePolicy(override, null));
    expect(verdict).toMatchObject({ action: 'block', riskScore: 100, requiresApproval: true });
    expect(Number.isInteger(verdict.riskScore)).toBe(true);
  });

  it('has documented values that match each other', () => {
    expect(guardrails.SENSITIVE_ACTION_TYPES).toContain('exec');
    expect(guardrails.HIGH_PRIVILEGE_PERMISSIONS).toEqual(
      expect.arrayContaining(['run_shell', 'network_access', 'delete_file', 'write_outside_workspace', 'secrets_access']),
    );
    expect(guardrails.validateGuardrailPolicy({ ...guardrails.DEFAULT_GUARDRAIL_POLICY })).toEqual(guardrails.DEFAULT_GUARDRAIL_POLICY);
    expect(guardrails.GUARDRAIL_ACTIONS).toEqual(['allow', 'warn', 'flag', 'block']);
  });
});
