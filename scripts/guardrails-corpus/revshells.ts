/**
 * 0dayCTF/reverse-shell-generator (MIT): the reverse and bind shells of `js/data.js` tagged
 * `linux` or `mac`, one-liners only (entries that are whole source files, C, PHP or Java, are
 * not commands an agent runs). Every one hands a shell to another machine or opens one to it,
 * so each is expected `stop`, except the three that are code for another program (a PHP page,
 * a line for node's prompt), reported without an expectation. The data file is read as text, never run: each entry is a
 * `{ "name": …, "command": …, "meta": [ … ] }` object of string literals. The generator's
 * placeholders are filled with its own defaults where it has them (shell `sh`, port 9001) and
 * a private address for the listener (`10.0.0.7`).
 */
import type { CorpusRow } from './build';
import { git } from './build';

const ENTRY = /\{\s*"name"\s*:\s*"((?:[^"\\]|\\.)*)"\s*,\s*"command"\s*:\s*"((?:[^"\\]|\\.)*)"\s*,\s*"meta"\s*:\s*\[([^\]]*)\]/g;

/** A JavaScript double-quoted string's body, unescaped (the escapes data.js uses). */
function unquote(body: string): string {
  return body.replace(/\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)/g, (_m, e: string) => {
    if (e[0] === 'u' || (e[0] === 'x' && e.length === 3)) return String.fromCharCode(parseInt(e.slice(1), 16));
    return ({ n: '\n', r: '\r', t: '\t' } as Record<string, string>)[e] ?? e;
  });
}

export const REVSHELL_FILL = { ip: '10.0.0.7', port: '9001', shell: 'sh' } as const;

export function reverseShells(repo: string, commit: string): CorpusRow[] {
  const file = 'js/data.js';
  const text = git(repo, 'show', `${commit}:${file}`);
  // Reverse and bind shells come before the msfvenom, HoaxShell and shellcode lists.
  const start = text.indexOf('const reverseShellCommands');
  const end = text.indexOf('const msfvenomCommands');
  if (start < 0 || end < start) throw new Error(`${file}: the reverse and bind shell lists were not found`);
  const rows: CorpusRow[] = [];
  const seen = new Set<string>();
  for (const m of text.slice(start, end).matchAll(ENTRY)) {
    const meta = [...m[3].matchAll(/"([^"]*)"/g)].map((x) => x[1]);
    if (!meta.includes('linux') && !meta.includes('mac')) continue;
    const raw = unquote(m[2]);
    if (/[\r\n]/.test(raw.trim())) continue;
    const command = raw.trim().split('{ip}').join(REVSHELL_FILL.ip).split('{port}').join(REVSHELL_FILL.port).split('{shell}').join(REVSHELL_FILL.shell);
    if (seen.has(command)) continue;
    seen.add(command);
    const name = unquote(m[1]);
    const bind = meta.includes('bind');
    // A web page or a line for node's prompt is code for another program, not a shell command line.
    const notShell = /^(?:<\?|require\()/.test(command);
    rows.push({
      id: `revshells:${bind ? 'bind' : 'reverse'}:${name.replace(/\s+/g, '_')}`,
      source: '0dayCTF/reverse-shell-generator',
      commit,
      file,
      family: bind ? 'attack_bind_shell' : 'attack_reverse_shell',
      expect: notShell ? 'any' : 'stop',
      labelledBy: `source: the generator's ${bind ? 'bind' : 'reverse'} shell "${name}" (${meta.join(', ')})${notShell ? '; not a shell command line (PHP page or node code): no expectation' : ''}`,
      command,
    });
  }
  return rows;
}
