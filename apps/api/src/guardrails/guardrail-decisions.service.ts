import { Injectable } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { Principal, principalIdentity } from '@cds/auth';
import { DomainEvent, envelope, GuardrailAlertV1, GuardrailKind, timeOrderedId } from '@cds/events';
import {
  authorizeAction,
  GuardrailVerdict,
  PromptModelScore,
  resolvePolicyWithOrigin,
  validateActionAuthorizeInput,
  validateGuardrailPolicyOverride,
  validateSkillVettingInput,
  vetSkill,
} from '@cds/guardrails';
import { LocalTextRuntime } from '@cds/providers';
import { EventWriter } from '@cds/write-path';
import { GuardrailPolicies } from './guardrail-policies.service';
import { assertMayChangePolicy, projectOf } from './project-access';

const ENGINES = {
  skill_vetting: { validate: validateSkillVettingInput, decide: vetSkill },
  action_authorization: { validate: validateActionAuthorizeInput, decide: authorizeAction },
} as const;

/**
 * Skill vetting and action authorization. Precedence of the policy: the request's
 * inline `policy` (field by field), then the project's stored policy, then the built-in
 * defaults. The decision, and an `agent.guardrail.*` alert when it blocks or needs
 * approval, are appended in one write before the answer.
 */
@Injectable()
export class GuardrailDecisions {
  constructor(
    private readonly policies: GuardrailPolicies,
    private readonly writer: EventWriter,
    private readonly text: LocalTextRuntime,
  ) {}

  async decide(kind: GuardrailKind, p: Principal, body: Record<string, unknown>) {
    const started = performance.now();
    const engine = ENGINES[kind];
    const input = engine.validate(body);
    const projectId = projectOf(p, body.projectId, false);
    const hasInline = body.policy !== undefined && body.policy !== null;
    if (hasInline) assertMayChangePolicy(p, 'an inline policy');
    const inline = hasInline ? validateGuardrailPolicyOverride(body.policy) : null;
    const stored = projectId ? await this.policies.current(p.tenantId, projectId) : null;
    const { policy, origin } = resolvePolicyWithOrigin(inline, stored);
    // The learned prompt-attack heads read a skill's prompt here (the engine stays pure):
    // one pass through the heads' layer; none under LOCAL_TEXT_MODEL=ngram (rules alone).
    const promptModel: PromptModelScore | null = kind === 'skill_vetting' ? await this.text.scorePromptAttack((input as { prompt: string }).prompt) : null;
    const verdict = engine.decide(input as any, policy, promptModel);

    const decisionId = timeOrderedId();
    const alert: GuardrailAlertV1 = { decisionId, projectId, kind, ...verdictFields(verdict) };
    const events: DomainEvent[] = [
      envelope('guardrail.decided', 1, p.tenantId, decisionId, {
        ...alert,
        request: { ...input },
        policy,
        policyOrigin: origin,
        ...(promptModel ? { promptModel } : {}),
        decidedBy: principalIdentity(p),
        latency: Math.round((performance.now() - started) * 1000) / 1000,
      }),
    ];
    if (verdict.action === 'block') events.push(envelope('agent.guardrail.blocked', 1, p.tenantId, decisionId, alert));
    if (verdict.requiresApproval) events.push(envelope('agent.guardrail.approval_required', 1, p.tenantId, decisionId, alert));
    await this.writer.write('guardrails', events, p.requestId);
    return { decisionId, ...verdictFields(verdict) };
  }
}

function verdictFields(v: GuardrailVerdict) {
  return { action: v.action, riskScore: v.riskScore, reasons: [...v.reasons], categories: [...v.categories], requiresApproval: v.requiresApproval };
}
