import { actionFindings, ActionAuthorizeInput } from './action-authorization';
import { compilePolicy } from './compiled-policy';
import { ProjectGuardrailPolicy } from './guardrail-policy';
import { buildVerdict, GuardrailVerdict } from './guardrail-verdict';
import { actionFacts, SessionFact } from './session/session-facts';
import { builtInSequenceFindings, customSequenceFindings, SessionAction } from './session/session-rules';

export interface SessionDecision {
  verdict: GuardrailVerdict;
  /** What this action did, to record on its decision for the session's later actions. */
  facts: SessionFact[];
}

/**
 * Authorizes an action of a session: the action on its own (as authorizeAction), then the
 * sequences it completes with `history`, the session's earlier actions, oldest first.
 */
export function authorizeSessionAction(input: ActionAuthorizeInput, policy: ProjectGuardrailPolicy, history: readonly SessionAction[]): SessionDecision {
  const { findings, analysis } = actionFindings(input, policy);
  const facts = actionFacts(input, analysis);
  const current: SessionAction = {
    decisionId: '',
    actionType: input.actionType,
    command: input.command,
    targetPath: input.targetPath,
    categories: [...new Set(findings.map((f) => f.category))],
    facts,
  };
  const rules = compilePolicy(policy).sessionRules;
  const sequences = [
    ...builtInSequenceFindings(history, facts, policy.networkAllowlist),
    ...customSequenceFindings(rules, history, current, policy.networkAllowlist),
  ];
  return { verdict: buildVerdict([...findings, ...sequences], policy.requireApprovalScore), facts };
}
