/**
 * Looking for a way up before taking it: searching the machine for setuid or setgid programs
 * (`find / -perm -4000`, `-perm /u=s,g=s`) or for programs with file capabilities
 * (`getcap -r /`). Each such program runs with its owner's rights, and the ones that can be
 * made to run a command or write a file are the classic route from a user to root
 * (GTFOBins' `suid` and `capabilities` contexts). An administrator audits this too, so it
 * asks for approval (medium) rather than being refused. A search inside the workspace is not
 * a search of the machine.
 */
import { normalizePath, PLACEHOLDER_WORKSPACE } from '../paths/path-normalizer';
import { findStarts } from '../shell/found-paths';
import { flagsOf } from '../shell/shell-command';
import { UNKNOWN_EXPANSION } from '../shell/shell-lexer';
import { ShellCommand } from '../shell/shell-parser';
import { CommandRisk } from './command-risk';

/** An octal mode whose special digit sets setuid (4) or setgid (2): `-4000`, `/6000`, `-04000`, `+2000`. */
const SPECIAL_OCTAL = /^[-/+]?0*[2-7][0-7]{3}$/;
/** A symbolic mode giving the owner or group `s`: `-u=s`, `/u=s,g=s`, `-ug+s`, `u=rwxs`. */
const SPECIAL_SYMBOLIC = /^[-/+]?(?:[ugoa]*[=+-][rwxXst]*,)*a?[ug]+[=+][rwxXt]*s/;

/** Is `start` (a `find` start or a `getcap` operand) somewhere on the machine other than the workspace? */
function outsideWorkspace(start: string, cwd: string): boolean {
  if (start.includes(UNKNOWN_EXPANSION) || start.startsWith('$')) return false;
  const key = normalizePath(start, cwd).key;
  return key !== PLACEHOLDER_WORKSPACE && !key.startsWith(`${PLACEHOLDER_WORKSPACE}/`);
}

function setuidSearch(c: ShellCommand): string | null {
  const { program, args } = c.unwrapped;
  if (program === 'find') {
    const k = args.findIndex((a, j) => a === '-perm' && (SPECIAL_OCTAL.test(args[j + 1] ?? '') || SPECIAL_SYMBOLIC.test(args[j + 1] ?? '')));
    const start = k < 0 ? undefined : findStarts(args).find((s) => outsideWorkspace(s, c.cwd));
    return start === undefined ? null : `searches ${start} for setuid or setgid programs (-perm ${args[k + 1]}), reconnaissance for privilege escalation`;
  }
  if (program === 'getcap') {
    const f = flagsOf(args);
    const start = f.short.has('r') ? f.operands.find((s) => outsideWorkspace(s, c.cwd)) : undefined;
    return start === undefined ? null : `searches ${start} for programs with file capabilities (getcap -r), reconnaissance for privilege escalation`;
  }
  return null;
}

export function privilegeReconRisks(c: ShellCommand): CommandRisk[] {
  const description = setuidSearch(c);
  return description === null ? [] : [{ rule: 'privilege_recon', severity: 'medium', description, command: c, category: 'dangerous_command' }];
}
