/**
 * Everything the engine says about one command string: built-in dangerous patterns,
 * blockShellPatterns, sensitive paths, network egress, privilege escalation and
 * obfuscation. Each finding names the simple command it was found in.
 */
import { CompiledPolicy } from './compiled-policy';
import { RiskFinding } from './guardrail-verdict';
import { hostAllowed, isLoopback, commandHosts } from './network/network-hosts';
import { matchesPathPrefix, normalizePath } from './paths/path-normalizer';
import { CommandRisk, dangerousCommandRisks, Severity } from './rules/dangerous-commands';
import { hasPathGlob } from './paths/path-glob';
import { interpreterCode } from './shell/interpreter-code';
import { embeddedFiles, optionOutputs } from './shell/file-options';
import { patternArgs } from './shell/pattern-args';
import { referenceArgs, referencePath } from './shell/path-actions';
import { flagsOf, SHELL_PROGRAMS } from './shell/shell-command';
import { UNKNOWN_EXPANSION } from './shell/shell-lexer';
import {
  canonicalCommand,
  canonicalWithWrappers,
  isInterpreter,
  MAX_SHELL_COMMANDS,
  MAX_SHELL_DEPTH,
  parseShell,
  ParsedShell,
  pipelinesOf,
  ShellCommand,
} from './shell/shell-parser';
import { matchShellPattern } from './shell/shell-glob';
import { commandZoneFindings } from './system-zone-analysis';

export const SEVERITY_POINTS: Readonly<Record<Severity, number>> = { critical: 100, high: 50, medium: 25 };
export const SENSITIVE_PATH_POINTS = { read: 30, write: 50 } as const;
export const NETWORK_EGRESS_POINTS = 50;
export const PRIVILEGE_ESCALATION_POINTS = 20;
export const OBFUSCATION_POINTS = { syntax: 20, incomplete: 30 } as const;

const SNIPPET = 100;
/** Device files every script touches, and /dev/tcp|udp which are network endpoints, not files. */
const BENIGN_DEVICES = /^\/dev\/(?:null|zero|u?random|stdin|stdout|stderr|tty|fd|full|ptmx|pts(?:\/\d+)?|(?:tcp|udp)\/.*)$/;
const WRITE_ALL = new Set(['rm', 'rmdir', 'unlink', 'shred', 'truncate', 'touch', 'mkdir', 'chmod', 'chown', 'chgrp', 'chattr', 'mv', 'ln', 'tee']);
const WRITE_LAST = new Set(['cp', 'install', 'rsync', 'scp']);
const SSH_FAMILY = new Set(['ssh', 'scp', 'sftp', 'ssh-copy-id']);
const OUTPUT_REDIRECT = /^(?:>|>>|>\||&>|&>>|<>)$/;

export function snippet(text: string): string {
  const t = text.split(UNKNOWN_EXPANSION).join('$(\u2026)').replace(/\s+/g, ' ').trim();
  return t.length > SNIPPET ? `${t.slice(0, SNIPPET - 1)}\u2026` : t;
}

function where(c: ShellCommand): string {
  return c.via ? ` inside ${c.via}` : '';
}

export function riskToFinding(r: CommandRisk, label: string): RiskFinding {
  return {
    category: r.category,
    points: SEVERITY_POINTS[r.severity],
    forceBlock: r.severity === 'critical',
    reason: `${label} runs "${snippet(r.shown ?? canonicalWithWrappers(r.command))}" (${r.description})${where(r.command)}`,
  };
}

interface PathUse {
  raw: string;
  mode: 'read' | 'write';
}

function looksLikePath(w: string): boolean {
  if (w === '' || w.startsWith('-') || w.includes('://')) return false;
  // A glob names paths even without a slash: after `cd /`, `?*` is every top-level directory.
  if (hasPathGlob(w)) return true;
  return /^(?:\/|~|\.\.?\/|\$HOME\b|\$\{HOME\})/.test(w) || (w.includes('/') && !/^[^/]*[@]/.test(w) && !/^[a-z0-9.-]+:/i.test(w));
}

function pathUses(c: ShellCommand): PathUse[] {
  const { program, args } = c.unwrapped;
  const uses: PathUse[] = [];
  const operands = flagsOf(args).operands;
  const sedInPlace = program === 'sed' && args.some((a) => /^-[a-z]*i/.test(a) || a.startsWith('--in-place'));
  const patterns = patternArgs(program, args);
  const refs = referenceArgs(program, args);
  args.forEach((a, k) => {
    // A key handed to ssh is used to log in, not read out (`ssh -i ~/.ssh/deploy host`); a pattern names no file.
    if ((SSH_FAMILY.has(program) && args[k - 1] === '-i') || patterns.has(k) || refs.skip.has(k)) return;
    // `touch -r REF f` only reads REF's times.
    if (refs.read.has(k)) {
      if (looksLikePath(referencePath(a))) uses.push({ raw: referencePath(a), mode: 'read' });
      return;
    }
    const value = a.startsWith('@') ? a.slice(1) : /^[a-z-]*=/i.test(a) ? a.slice(a.indexOf('=') + 1).replace(/^@/, '') : a;
    if (!looksLikePath(value)) return;
    let mode: PathUse['mode'] = 'read';
    if (WRITE_ALL.has(program) || sedInPlace || (program === 'dd' && a.startsWith('of='))) mode = 'write';
    if (WRITE_LAST.has(program) && a === operands[operands.length - 1] && operands.length > 1) mode = 'write';
    uses.push({ raw: value, mode });
  });
  for (const r of c.redirects) {
    if (/^\d+$|^-$/.test(r.target) || !looksLikePath(r.target)) continue;
    uses.push({ raw: r.target, mode: OUTPUT_REDIRECT.test(r.op) ? 'write' : 'read' });
  }
  // What the program writes through its options and output operands, and files named inside arguments.
  const writes = new Set(optionOutputs(program, args));
  for (const u of uses) if (writes.has(u.raw)) u.mode = 'write';
  for (const w of writes) if (!uses.some((u) => u.raw === w)) uses.push({ raw: w, mode: 'write' });
  for (const f of embeddedFiles(program, args)) if (!uses.some((u) => u.raw === f.raw && u.mode === f.verb)) uses.push({ raw: f.raw, mode: f.verb });
  // Paths quoted inside interpreter one-liners: python3 -c "open('/etc/shadow')".
  if (isInterpreter(c.unwrapped) && !SHELL_PROGRAMS.has(program)) {
    // The code given as an argument, or fed on stdin (`echo 'print(open("/etc/shadow").read())' | python3`).
    const code = interpreterCode(program, args) ?? c.stdin ?? '';
    for (const m of code.slice(0, 8192).matchAll(/['"]((?:\/|~\/)[^'"\s]{1,256})['"]/g)) uses.push({ raw: m[1], mode: 'read' });
  }
  return uses;
}

/** `covered`: paths a system-zone finding already judged for that command (one finding per path). */
function sensitivePathFindings(parsed: ParsedShell, policy: CompiledPolicy, label: string, covered: ReadonlyMap<ShellCommand, Set<string>>): RiskFinding[] {
  const out: RiskFinding[] = [];
  // One finding per prefix and mode: a second file read under /etc says nothing the first did not.
  const seen = new Set<string>();
  for (const c of parsed.commands) {
    for (const use of pathUses(c)) {
      if (covered.get(c)?.has(use.raw)) continue;
      const np = normalizePath(use.raw, c.cwd);
      if (BENIGN_DEVICES.test(np.key)) continue;
      const prefix = policy.prefixes.find((p) => matchesPathPrefix(np, p));
      if (!prefix || seen.has(`${use.mode} ${prefix.source}`)) continue;
      seen.add(`${use.mode} ${prefix.source}`);
      const resolved = hasPathGlob(np.key) ? ', a glob that can match a path' : np.display !== use.raw ? ` (resolves to ${np.display})` : '';
      out.push({
        category: 'sensitive_path',
        points: SENSITIVE_PATH_POINTS[use.mode],
        reason: `${label} ${use.mode === 'write' ? 'writes' : 'reads'} "${snippet(use.raw)}"${resolved}, under sensitive prefix "${prefix.source}"${where(c)}`,
      });
    }
  }
  return out;
}

function egressFindings(parsed: ParsedShell, policy: CompiledPolicy, label: string): RiskFinding[] {
  const out: RiskFinding[] = [];
  const seen = new Set<string>();
  for (const c of parsed.commands) {
    for (const m of commandHosts(c)) {
      if (seen.has(m.host) || isLoopback(m.host) || hostAllowed(m.host, policy.allowlist)) continue;
      seen.add(m.host);
      const used = `${c.unwrapped.program || 'redirect'} ${snippet(m.word)}`;
      out.push({
        category: 'network_egress',
        points: NETWORK_EGRESS_POINTS,
        reason:
          m.host === UNKNOWN_EXPANSION
            ? `${label} contacts a host only known at run time (${used}), which cannot be checked against networkAllowlist${where(c)}`
            : `${label} contacts "${snippet(m.host)}" (${used}), which is not in networkAllowlist${where(c)}`,
      });
    }
  }
  return out;
}

const SHORT_CLUSTER = /^-[A-Za-z]{2,12}$/;

/** `git push -uf` is also matched as `git push -u -f`, so clustering short options cannot dodge `git push* -f *`. */
function splitClusters(text: string): string {
  return text
    .split(' ')
    .map((w) => (SHORT_CLUSTER.test(w) ? [...w.slice(1)].map((ch) => `-${ch}`).join(' ') : w))
    .join(' ');
}

function blockedPatternFindings(parsed: ParsedShell, policy: CompiledPolicy, label: string): RiskFinding[] {
  if (policy.patterns.length === 0) return [];
  const shown: string[] = [];
  for (const c of parsed.commands) shown.push(canonicalCommand(c), canonicalWithWrappers(c));
  for (const p of pipelinesOf(parsed)) if (p.length > 1) shown.push(p.map(canonicalCommand).join(' | '));
  const texts = shown.flatMap((text) => {
    const split = splitClusters(text);
    return split === text
      ? [{ text, shown: text }]
      : [
          { text, shown: text },
          { text: split, shown: text },
        ];
  });
  const out: RiskFinding[] = [];
  for (const { index, pattern } of policy.patterns) {
    const hit = texts.find((t) => t.text !== '' && matchShellPattern(pattern, t.text));
    if (hit === undefined) continue;
    out.push({
      category: 'blocked_pattern',
      points: 100,
      forceBlock: true,
      reason: `${label} "${snippet(hit.shown)}" matches blocked pattern "${pattern.source}" (blockShellPatterns[${index}])`,
    });
  }
  return out;
}

function privilegeFindings(parsed: ParsedShell, label: string): RiskFinding[] {
  return parsed.commands
    .filter((c) => c.unwrapped.elevated || ['su', 'sudo', 'doas', 'pkexec'].includes(c.unwrapped.program))
    .map((c) => ({
      category: 'privilege_escalation' as const,
      points: PRIVILEGE_ESCALATION_POINTS,
      reason: `${label} runs "${snippet(canonicalWithWrappers(c))}" with elevated privileges (${c.unwrapped.wrappers.find((w) => ['sudo', 'doas', 'pkexec'].includes(w)) ?? c.unwrapped.program})${where(c)}`,
    }));
}

function obfuscationFindings(raw: string, parsed: ParsedShell, label: string): RiskFinding[] {
  const out: RiskFinding[] = [];
  const add = (points: number, what: string) => out.push({ category: 'obfuscated_command', points, reason: `${label} ${what}` });
  if (/\$\{?IFS\b/.test(raw)) add(OBFUSCATION_POINTS.syntax, 'uses $IFS in place of spaces');
  if (/\$'[^']{0,4096}\\(?:x[0-9a-f]|[0-7]{3}|u[0-9a-f])/i.test(raw)) add(OBFUSCATION_POINTS.syntax, "spells words with escape sequences ($'\\x..')");
  if (parsed.depthExceeded) add(OBFUSCATION_POINTS.incomplete, `nests shells more than ${MAX_SHELL_DEPTH} levels deep; analysis stopped there`);
  if (parsed.truncated)
    add(OBFUSCATION_POINTS.incomplete, `is too large (over ${MAX_SHELL_COMMANDS} simple commands or 64 KiB expanded); analysis stopped early`);
  return out;
}

export interface CommandAnalysis {
  parsed: ParsedShell;
  risks: CommandRisk[];
  findings: RiskFinding[];
}

/** `label` starts every reason: "command", "prompt code". */
export function analyzeCommand(command: string, policy: CompiledPolicy, label = 'command'): CommandAnalysis {
  const parsed = parseShell(command);
  const risks = dangerousCommandRisks(parsed);
  const zones = commandZoneFindings(parsed, risks, policy, label);
  const covered = new Map<ShellCommand, Set<string>>();
  for (const z of zones) if (z.command) covered.set(z.command, (covered.get(z.command) ?? new Set()).add(z.raw));
  // A startup file or schedule written is judged by `persistence`, not again as a sensitive write.
  for (const r of risks) if (r.rule === 'persistence' && r.path) covered.set(r.command, (covered.get(r.command) ?? new Set()).add(r.path));
  const findings = [
    ...blockedPatternFindings(parsed, policy, label),
    ...risks.map((r) => riskToFinding(r, label)),
    ...zones.map(({ category, points, reason, forceBlock }) => ({ category, points, reason, forceBlock })),
    ...sensitivePathFindings(parsed, policy, label, covered),
    ...egressFindings(parsed, policy, label),
    ...privilegeFindings(parsed, label),
    ...obfuscationFindings(command, parsed, label),
  ];
  return { parsed, risks, findings };
}
