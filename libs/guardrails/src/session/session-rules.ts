/**
 * Rules over a session's actions: what an action means after what the same session did
 * before. Built in: a secret read, then a host outside networkAllowlist (exfiltration); a
 * download, then running it; a shell startup file or cron written, then any command run.
 * A project policy adds its own sequences (`sessionRules`, the grammar in GUARDRAILS.md,
 * "Rules over a session"). Each finding names the earlier actions by decision id.
 */
import { RiskFinding } from '../guardrail-verdict';
import { ActionType, GuardrailCategory } from '../guardrail-values';
import { hostAllowed, isLoopback } from '../network/network-hosts';
import { CompiledShellPattern, compileShellPattern, matchShellPattern } from '../shell/shell-glob';
import { SessionFact, SessionFactKind } from './session-facts';

/** One earlier action of the session, as its decision recorded it. */
export interface SessionAction {
  decisionId: string;
  actionType: string;
  command: string;
  targetPath: string;
  categories: readonly string[];
  facts: readonly SessionFact[];
}

/** A step matches an action when every condition it sets holds. */
export interface SessionRuleStep {
  actionType?: ActionType[];
  /** The action's decision had one of these categories. */
  category?: GuardrailCategory[];
  /** The action did one of these; `network_egress` is a host outside networkAllowlist. */
  fact?: Array<SessionFactKind | 'network_egress'>;
  /** blockShellPatterns glob, matched against the command (whitespace collapsed). */
  command?: string;
  /** The same glob syntax, matched against the targetPath as sent. */
  targetPath?: string;
}

export interface SessionRule {
  name: string;
  /** In order; the last step is the action being authorized. */
  steps: SessionRuleStep[];
  /** How many earlier actions of the session the other steps may reach back (default 50). */
  within?: number;
  /** `flag`: 50 points (approval by default); `block`: forces a block. */
  action: 'flag' | 'block';
}

export const SESSION_SEQUENCE_POINTS = 50;
export const DEFAULT_RULE_WINDOW = 50;

function egressHosts(facts: readonly SessionFact[], allowlist: readonly string[]): string[] {
  return facts.filter((f) => f.kind === 'network' && (f.value === '*' || (!isLoopback(f.value) && !hostAllowed(f.value, allowlist)))).map((f) => f.value);
}

/** `decision X` or `decisions X, Y and 2 more`. */
function named(ids: readonly string[]): string {
  const shown = ids.slice(0, 3);
  const more = ids.length - shown.length;
  return `decision${ids.length > 1 ? 's' : ''} ${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}

function finding(reason: string, forceBlock = false): RiskFinding {
  return { category: 'session_sequence', points: forceBlock ? 100 : SESSION_SEQUENCE_POINTS, forceBlock, reason: `session: ${reason}` };
}

/** The built-in sequences; `history` is oldest first, `current` the action being authorized. */
export function builtInSequenceFindings(history: readonly SessionAction[], current: readonly SessionFact[], allowlist: readonly string[]): RiskFinding[] {
  const out: RiskFinding[] = [];
  const hosts = egressHosts(current, allowlist);
  if (hosts.length > 0) {
    const reads = history.filter((a) => a.facts.some((f) => f.kind === 'secret_read'));
    if (reads.length > 0) {
      const last = reads[reads.length - 1];
      const what = last.facts.find((f) => f.kind === 'secret_read')!.value;
      const host = hosts[0] === '*' ? 'a host only known at run time' : `"${hosts[0]}", which is not in networkAllowlist`;
      out.push(
        finding(`secrets were read earlier (${what}; ${named(reads.map((a) => a.decisionId).reverse())}) and this action contacts ${host} (exfiltration)`),
      );
    }
  }
  const runs = current.filter((f) => f.kind === 'run').map((f) => f.value);
  for (const path of runs) {
    const dl = history.filter((a) => a.facts.some((f) => f.kind === 'download' && f.value === path));
    if (dl.length > 0) out.push(finding(`runs ${path}, downloaded earlier (${named(dl.map((a) => a.decisionId).reverse())})`));
  }
  if (current.some((f) => f.kind === 'exec')) {
    const writes = history.filter((a) => a.facts.some((f) => f.kind === 'startup_write'));
    if (writes.length > 0) {
      const what = writes[writes.length - 1].facts.find((f) => f.kind === 'startup_write')!.value;
      out.push(finding(`runs a command after a shell startup file or cron was written (${what}; ${named(writes.map((a) => a.decisionId).reverse())})`));
    }
  }
  return out;
}

export interface CompiledSessionRule {
  rule: SessionRule;
  steps: Array<SessionRuleStep & { commandGlob?: CompiledShellPattern; targetGlob?: CompiledShellPattern }>;
}

/** Patterns compiled once per policy (validation already rejected any that do not compile). */
export function compileSessionRules(rules: readonly SessionRule[] | undefined): CompiledSessionRule[] {
  return (rules ?? []).map((rule) => ({
    rule,
    steps: rule.steps.map((s) => ({
      ...s,
      commandGlob: s.command === undefined ? undefined : compileShellPattern(s.command),
      targetGlob: s.targetPath === undefined ? undefined : compileShellPattern(s.targetPath),
    })),
  }));
}

function stepMatches(step: CompiledSessionRule['steps'][number], a: SessionAction, allowlist: readonly string[]): boolean {
  if (step.actionType && !step.actionType.includes(a.actionType as ActionType)) return false;
  if (step.category && !step.category.some((c) => a.categories.includes(c))) return false;
  if (step.fact && !step.fact.some((k) => (k === 'network_egress' ? egressHosts(a.facts, allowlist).length > 0 : a.facts.some((f) => f.kind === k))))
    return false;
  if (step.commandGlob && !matchShellPattern(step.commandGlob, a.command.replace(/\s+/g, ' ').trim())) return false;
  if (step.targetGlob && !matchShellPattern(step.targetGlob, a.targetPath)) return false;
  return true;
}

/** Each project rule whose last step is this action and whose other steps are earlier actions, in order. */
export function customSequenceFindings(
  rules: readonly CompiledSessionRule[],
  history: readonly SessionAction[],
  current: SessionAction,
  allowlist: readonly string[],
): RiskFinding[] {
  const out: RiskFinding[] = [];
  for (const { rule, steps } of rules) {
    if (!stepMatches(steps[steps.length - 1], current, allowlist)) continue;
    const window = history.slice(-(rule.within ?? DEFAULT_RULE_WINDOW));
    const matched: string[] = [];
    let k = window.length - 1;
    // Latest match for each step, walking back: finds the sequence whenever one exists.
    for (let s = steps.length - 2; s >= 0; s--) {
      while (k >= 0 && !stepMatches(steps[s], window[k], allowlist)) k--;
      if (k < 0) break;
      matched.unshift(window[k].decisionId);
      k--;
    }
    if (matched.length !== steps.length - 1) continue;
    out.push(finding(`project rule "${rule.name}" matched (${named(matched)}, then this action)`, rule.action === 'block'));
  }
  return out;
}
