/**
 * What one action did, as far as the rules over a session care: secrets it read, hosts
 * it contacted, files it downloaded or ran, shell startup files or cron it wrote, whether
 * it ran a command at all. Recorded on the action's decision event, so a later action of
 * the session, on any replica, judges the sequence without analysing the past again.
 */
import { ActionAuthorizeInput } from '../action-authorization';
import { CommandAnalysis } from '../command-analysis';
import { NETWORK_ACTION_TYPES } from '../guardrail-values';
import { commandHosts, looksLikeHost, normalizeHost, urlHosts } from '../network/network-hosts';
import { normalizePath } from '../paths/path-normalizer';
import { credentialKind } from '../rules/credential-files';
import { printsEnvironment } from '../rules/dangerous-commands';
import { downloadedFiles } from '../rules/remote-code';
import { CHANGING_VERBS, pathActions } from '../shell/path-actions';
import { SHELL_PROGRAMS } from '../shell/shell-command';
import { UNKNOWN_EXPANSION } from '../shell/shell-lexer';
import { isInterpreter, pipelinesOf, ShellCommand } from '../shell/shell-parser';

export const SESSION_FACT_KINDS = ['secret_read', 'network', 'download', 'run', 'startup_write', 'exec'] as const;
export type SessionFactKind = (typeof SESSION_FACT_KINDS)[number];

export interface SessionFact {
  kind: SessionFactKind;
  /** What: the secret read, the host (`*` when only known at run time), the path key, the actionType. */
  value: string;
}

/** Files a login or interactive shell of the user runs, and the cron tables. */
const STARTUP_OR_CRON =
  /\/\.(?:bashrc|bash_profile|bash_login|profile|zshrc|zprofile|zshenv|zlogin|kshrc|cshrc|tcshrc)$|\/\.config\/fish\/config\.fish$|^\/etc\/(?:profile|bash\.bashrc|zsh\/[^/]+|environment)$|^\/etc\/profile\.d\/|^\/etc\/crontab$|^\/etc\/cron\.[a-z]+\/|^\/var\/spool\/cron\//;
const MAX_FACTS = 32;

function runTargets(c: ShellCommand): string[] {
  const u = c.unwrapped;
  const out: string[] = [];
  if (u.programPath.includes('/')) out.push(u.programPath);
  if (isInterpreter(u) || SHELL_PROGRAMS.has(u.program) || u.program === 'source' || u.program === '.') {
    const script = u.args.find((a) => !a.startsWith('-'));
    if (script !== undefined && !(SHELL_PROGRAMS.has(u.program) && u.args.some((a) => /^-[a-z]*c/.test(a)))) out.push(script);
  }
  return out.filter((p) => !p.includes(UNKNOWN_EXPANSION)).map((p) => normalizePath(p, c.cwd).key);
}

function commandFacts(analysis: CommandAnalysis): SessionFact[] {
  const out: SessionFact[] = [];
  for (const r of analysis.risks) {
    if (r.rule === 'credential_read') out.push({ kind: 'secret_read', value: r.description });
    if (r.rule === 'cron' && r.description.includes('installs')) out.push({ kind: 'startup_write', value: 'crontab' });
  }
  const pipelineOf = new Map<ShellCommand, ShellCommand[]>();
  for (const p of pipelinesOf(analysis.parsed)) for (const c of p) pipelineOf.set(c, p);
  for (const c of analysis.parsed.commands) {
    // Printed to the terminal or sent on, the environment is now in the agent's hands.
    if (printsEnvironment(c)) out.push({ kind: 'secret_read', value: 'every environment variable' });
    for (const m of commandHosts(c)) out.push({ kind: 'network', value: m.host === UNKNOWN_EXPANSION ? '*' : m.host });
    for (const f of downloadedFiles(c, pipelineOf.get(c) ?? [c])) out.push({ kind: 'download', value: f });
    for (const f of runTargets(c)) out.push({ kind: 'run', value: f });
    for (const a of pathActions(c)) {
      if (!CHANGING_VERBS.has(a.verb) || a.raw.includes(UNKNOWN_EXPANSION)) continue;
      const key = normalizePath(a.raw, c.cwd).key;
      if (STARTUP_OR_CRON.test(key)) out.push({ kind: 'startup_write', value: key });
    }
    if (c.unwrapped.program === 'crontab' && c.unwrapped.args.some((a) => a === '-' || !a.startsWith('-')))
      out.push({ kind: 'startup_write', value: 'crontab' });
  }
  return out;
}

function targetFacts(input: ActionAuthorizeInput): SessionFact[] {
  const raw = input.targetPath.trim();
  if (raw === '') return [];
  if (/^[a-z][a-z0-9+.-]{1,15}:\/\//i.test(raw) && !/^file:/i.test(raw)) return urlHosts(raw).map((m) => ({ kind: 'network', value: m.host }));
  if (NETWORK_ACTION_TYPES.includes(input.actionType) && looksLikeHost(raw.split('/')[0]))
    return [{ kind: 'network', value: normalizeHost(raw.split('/')[0]) }];
  const np = normalizePath(raw);
  const out: SessionFact[] = [];
  const writes = input.actionType === 'file_write' || input.actionType === 'file_delete';
  const credential = writes ? null : credentialKind(np);
  if (credential) out.push({ kind: 'secret_read', value: `${raw} (${credential})` });
  if (writes && STARTUP_OR_CRON.test(np.key)) out.push({ kind: 'startup_write', value: np.key });
  return out;
}

/** The facts of one action (distinct, at most MAX_FACTS). */
export function actionFacts(input: ActionAuthorizeInput, analysis: CommandAnalysis | null): SessionFact[] {
  const all: SessionFact[] = [];
  if (input.command.trim() !== '') all.push({ kind: 'exec', value: input.actionType });
  if (input.actionType === 'secret_access')
    all.push({ kind: 'secret_read', value: `a secret_access action${input.targetPath ? ` on ${input.targetPath}` : ''}` });
  if (analysis) all.push(...commandFacts(analysis));
  all.push(...targetFacts(input));
  const seen = new Set<string>();
  return all
    .filter((f) => {
      const k = `${f.kind}\u0000${f.value}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    })
    .slice(0, MAX_FACTS)
    .map((f) => ({ kind: f.kind, value: f.value.length > 256 ? `${f.value.slice(0, 255)}\u2026` : f.value }));
}
