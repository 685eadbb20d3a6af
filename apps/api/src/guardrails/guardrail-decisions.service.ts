import { Injectable } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { Principal, principalIdentity } from '@cds/auth';
import { AppConfig } from '@cds/config';
import { DomainEvent, envelope, GuardrailAlertV1, GuardrailKind, timeOrderedId } from '@cds/events';
import {
  authorizeAction,
  authorizeSessionAction,
  GuardrailVerdict,
  PromptModelScore,
  resolvePolicyWithOrigin,
  SessionFact,
  skillContentHash,
  validateActionAuthorizeInput,
  validateGuardrailPolicyOverride,
  validateSkillVettingInput,
  vetSkill,
} from '@cds/guardrails';
import { LocalTextRuntime } from '@cds/providers';
import { EventWriter } from '@cds/write-path';
import { GuardrailPolicies } from './guardrail-policies.service';
import { assertMayChangePolicy, projectOf } from './project-access';
import { SessionHistory } from './session-history.service';
import { SkillPins } from './skill-pins.service';

/**
 * Skill vetting and action authorization. Precedence of the policy: the request's
 * inline `policy` (field by field), then the project's stored policy, then the built-in
 * defaults. The decision, and an `agent.guardrail.*` alert when it blocks or needs
 * approval, are appended in one write before the answer. A vetted skill's content hash
 * goes on its decision: the next vetting of the same skillId compares with its pin. An
 * action under a session token is judged with what the session did before (read from the
 * log), and what it did goes on its decision for the session's next actions.
 */
@Injectable()
export class GuardrailDecisions {
  constructor(
    private readonly policies: GuardrailPolicies,
    private readonly writer: EventWriter,
    private readonly pins: SkillPins,
    private readonly sessions: SessionHistory,
    private readonly text: LocalTextRuntime,
    private readonly config: AppConfig,
  ) {}

  async decide(kind: GuardrailKind, p: Principal, body: Record<string, unknown>) {
    const started = performance.now();
    const input = kind === 'skill_vetting' ? validateSkillVettingInput(body) : validateActionAuthorizeInput(body);
    const projectId = projectOf(p, body.projectId, false);
    const hasInline = body.policy !== undefined && body.policy !== null;
    if (hasInline) assertMayChangePolicy(p, 'an inline policy');
    const inline = hasInline ? validateGuardrailPolicyOverride(body.policy) : null;
    const sessionId = p.session && !('skillId' in input) ? p.session.tokenId : null;
    // Both reads wait for the same projection of the guardrails topic: asked together.
    const [stored, history] = await Promise.all([
      projectId ? this.policies.current(p.tenantId, projectId) : null,
      sessionId ? this.sessions.of(p.tenantId, sessionId) : null,
    ]);
    const { policy, origin } = resolvePolicyWithOrigin(inline, stored);
    let verdict: GuardrailVerdict;
    let skill: { skillId: string; contentHash: string } | undefined;
    let session: { sessionId: string; facts: SessionFact[] } | undefined;
    let promptModel: PromptModelScore | null = null;
    if ('skillId' in input) {
      skill = { skillId: input.skillId, contentHash: skillContentHash(input) };
      // The learned prompt-attack heads read a skill's prompt here (SKILL_PROMPT_MODEL=on, the
      // default; the engine stays pure): one pass through the heads' layer; none under
      // LOCAL_TEXT_MODEL=ngram or SKILL_PROMPT_MODEL=off (rules alone).
      const useModel = this.config.SKILL_PROMPT_MODEL === 'on';
      const [pinned, model] = await Promise.all([
        this.pins.pinned(p.tenantId, projectId, input.skillId),
        useModel ? this.text.scorePromptAttack(input.prompt) : null,
      ]);
      promptModel = model;
      verdict = vetSkill(input, policy, pinned, promptModel);
    } else if (sessionId && history) {
      const decided = authorizeSessionAction(input, policy, history);
      verdict = decided.verdict;
      session = { sessionId, facts: decided.facts };
    } else {
      verdict = authorizeAction(input, policy);
    }

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
        ...(skill ? { skill } : {}),
        ...(session ? { session } : {}),
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
