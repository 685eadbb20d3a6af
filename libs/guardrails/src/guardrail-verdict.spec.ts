import { actionForScore, buildVerdict, RiskFinding } from './guardrail-verdict';

const f = (category: RiskFinding['category'], points: number, reason = `${category} ${points}`, forceBlock = false): RiskFinding => ({
  category,
  points,
  reason,
  forceBlock,
});

describe('buildVerdict', () => {
  it('maps score ranges to actions', () => {
    expect([0, 24, 25, 49, 50, 79, 80, 100].map(actionForScore)).toEqual(['allow', 'allow', 'warn', 'warn', 'flag', 'flag', 'block', 'block']);
  });

  it('allows with no findings, no reasons and no approval', () => {
    expect(buildVerdict([], 50)).toEqual({ action: 'allow', riskScore: 0, reasons: [], categories: [], requiresApproval: false });
  });

  it('sums points, caps each category and the total', () => {
    const v = buildVerdict([f('sensitive_action', 25), f('network_egress', 50), f('network_egress', 50, 'second host')], 50);
    expect(v).toMatchObject({ riskScore: 75, action: 'flag', categories: ['sensitive_action', 'network_egress'] });
    expect(v.reasons).toHaveLength(3);
    expect(buildVerdict([f('dangerous_command', 100), f('sensitive_path', 60)], 50).riskScore).toBe(100);
  });

  it('caps provenance and privilege together below block', () => {
    const v = buildVerdict(
      [f('marketplace_source', 30), f('integrity_unverified', 15), f('unsigned_publisher', 10), f('low_reputation', 25), f('high_privilege_permission', 60)],
      50,
    );
    expect(v).toMatchObject({ riskScore: 75, action: 'flag' });
  });

  it('forces a block at 100 whatever the other points', () => {
    expect(buildVerdict([f('dangerous_command', 100, 'rm -rf /', true)], 100)).toMatchObject({ action: 'block', riskScore: 100, requiresApproval: true });
  });

  it('requires approval at or above requireApprovalScore', () => {
    expect(buildVerdict([f('sensitive_action', 25)], 25).requiresApproval).toBe(true);
    expect(buildVerdict([f('sensitive_action', 25)], 26).requiresApproval).toBe(false);
  });

  it('keeps one copy of a repeated reason', () => {
    expect(buildVerdict([f('sensitive_path', 30, 'same'), f('sensitive_path', 30, 'same')], 50)).toMatchObject({ riskScore: 30, reasons: ['same'] });
  });
});
