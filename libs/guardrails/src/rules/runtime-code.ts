/**
 * Code that only exists at run time: `eval`, `source`, `bash -c`, `python -c` of a string
 * computed by the script (a variable, a function's argument, command output), and code
 * decoded at run time (base64, hex, `xxd -r`) handed to an interpreter or written out as a
 * program. What the parser could follow (a literal, an argument of a known call) it has
 * already analysed; what it could not is escalated here.
 */
import { flagsOf, SHELL_PROGRAMS } from '../shell/shell-command';
import { UNKNOWN_EXPANSION } from '../shell/shell-lexer';
import { isInterpreter, ShellCommand } from '../shell/shell-parser';
import { CommandRisk, Severity } from './command-risk';
import { codeArgument, decoderName, isDownloader } from './remote-code';

/** Programs whose output is shell code meant to be eval'd or sourced: `eval "$(ssh-agent -s)"`. */
const INIT_PRINTERS = new Set([
  'ssh-agent',
  'gpg-agent',
  'keychain',
  'dbus-launch',
  'pyenv',
  'rbenv',
  'nodenv',
  'goenv',
  'jenv',
  'plenv',
  'direnv',
  'starship',
  'zoxide',
  'fnm',
  'mise',
  'rtx',
  'brew',
  'conda',
  'mamba',
  'micromamba',
  'opam',
  'luarocks',
  'minikube',
  'docker-machine',
  'dircolors',
  'lesspipe',
  'lesspipe.sh',
  'thefuck',
  'resize',
  'register-python-argcomplete',
  'atuin',
  'mcfly',
  'oh-my-posh',
  'navi',
  'fzf',
  'kubectl',
  'helm',
  'gh',
  'npm',
  'pip',
  'rustup',
  'poetry',
  'pipenv',
  'aws_completer',
  'terraform',
  'nvm',
  'sdk',
  'asdf',
  'rye',
  'uv',
  'just',
  'deno',
  'bun',
  'task',
  'kind',
  'k3d',
  'eksctl',
  'gcloud',
  'az',
  'ng',
  'pnpm',
  'yarn',
  'cargo',
  'docker',
  'podman',
  'hugo',
  'stern',
  'flux',
  'argocd',
  'tkn',
  'op',
  'vault',
]);

function runsCode(c: ShellCommand): 'shell' | 'eval' | 'source' | 'interpreter' | null {
  const u = c.unwrapped;
  if (u.program === 'eval') return 'eval';
  if (u.program === 'source' || u.program === '.') return 'source';
  if (SHELL_PROGRAMS.has(u.program)) return u.args.some((a) => /^-[a-z]*c[a-z]*$/i.test(a)) ? 'shell' : null;
  return isInterpreter(u) && codeArgument(c) !== null ? 'interpreter' : null;
}

/** Is argument `k` of the unwrapped command only known at run time? */
function argDynamic(c: ShellCommand, k: number): boolean {
  return c.dynamic[c.argv.length - c.unwrapped.args.length + k] === true;
}

/** The text that becomes code: the -c script, eval's words, the sourced file, the interpreter's code. */
function codeText(c: ShellCommand, how: NonNullable<ReturnType<typeof runsCode>>): { text: string; dynamic: boolean } {
  const { args } = c.unwrapped;
  if (how === 'eval') return { text: args.join(' '), dynamic: args.some((_a, k) => argDynamic(c, k)) };
  if (how === 'source') {
    const k = args.findIndex((a) => !a.startsWith('-'));
    return { text: args[k] ?? '', dynamic: k >= 0 && argDynamic(c, k) };
  }
  if (how === 'shell') {
    const flag = args.findIndex((a) => /^-[a-z]*c[a-z]*$/i.test(a));
    const k = args.findIndex((a, j) => j > flag && !a.startsWith('-'));
    return { text: args[k] ?? '', dynamic: k >= 0 && argDynamic(c, k) };
  }
  const code = codeArgument(c) ?? '';
  return { text: code, dynamic: code.includes(UNKNOWN_EXPANSION) || c.dynamic.some(Boolean) };
}

/** Code text whose first word (what it runs) is unknown: `$cmd`, `$1 --x`, `$(cat f)`. */
function programUnknown(text: string): boolean {
  const t = text.trim();
  return t === '' || t.startsWith(UNKNOWN_EXPANSION) || /^\$\{?[A-Za-z_@*0-9]/.test(t);
}

const DECODE_AND_RUN = [
  /\b(?:b64decode|b32decode|fromhex|unhexlify|decompress)\b[\s\S]{0,400}\b(?:subprocess|os\.system|os\.popen|pty\.spawn)|\b(?:subprocess|os\.system|os\.popen)[\s\S]{0,400}\b(?:b64decode|fromhex|unhexlify)\b/i,
  /\b(?:exec|eval)\s{0,3}\([^;\n]{0,200}\b(?:b64decode|b32decode|a85decode|fromhex|unhexlify|decompress|codecs\.decode|decode\(\s{0,3}['"](?:base64|hex|rot13))/i,
  /\beval\s{0,3}\(?[^;]{0,200}\b(?:base64_decode|gzinflate|gzuncompress|str_rot13|hex2bin|decode_base64|unpack\s{0,3}\(\s{0,3}['"](?:H\*|m))/i,
  /\b(?:eval|Function)\s{0,3}\([^;]{0,200}(?:Buffer\.from\([^)]{0,200}['"](?:base64|hex)['"]|atob\s{0,3}\()/i,
  /\beval\s{0,3}\(?[^;]{0,200}\b(?:Base64\.(?:decode64|strict_decode64)|\.unpack1?\s{0,3}\(\s{0,3}['"]m)/i,
  /\b(?:iex|invoke-expression)\b[^;]{0,200}frombase64string/i,
];

function risk(c: ShellCommand, rule: string, severity: Severity, description: string, category: CommandRisk['category'] = 'dangerous_command'): CommandRisk {
  return { rule, severity, description, command: c, category };
}

/** Shells, eval, source and interpreters running code made at run time, decoded or not knowable. */
export function runtimeCodeRisks(c: ShellCommand): CommandRisk[] {
  const { program, args } = c.unwrapped;
  const out: CommandRisk[] = [];
  if ((program === 'pwsh' || program === 'powershell') && args.some((a) => /^-e(?:nc(?:odedcommand)?)?$/i.test(a)))
    out.push(risk(c, 'decoded_code', 'high', `${program} runs a base64-encoded command`));
  const how = runsCode(c);
  if (!how) return out;
  const producers = c.substituted.filter((s) => s.depth === c.depth + 1 || s.via === '$(...)' || s.via === '<(...)');
  const decoder = c.substituted.map(decoderName).find((d) => d !== null);
  if (decoder) {
    out.push(risk(c, 'decoded_code', 'high', `runs code decoded at run time (${decoder}) in ${program}`));
    return out;
  }
  if (how === 'interpreter' && DECODE_AND_RUN.some((re) => re.test(codeArgument(c) ?? ''))) {
    out.push(risk(c, 'decoded_code', 'high', `${program} one-liner decodes code and runs it`));
    return out;
  }
  if (c.substituted.some(isDownloader)) return out; // remote_code says it
  const { text, dynamic } = codeText(c, how);
  if (!dynamic) return out;
  const fromInit = producers.length > 0 && producers.every((s) => INIT_PRINTERS.has(s.unwrapped.program) || s.unwrapped.program === '');
  if (fromInit) return out;
  if (how === 'source') {
    // `. "$NVM_DIR/nvm.sh"` names a file; `source "$1"` could be anything.
    if (programUnknown(text) && !/\/[^/$\u27e8]+$/.test(text))
      out.push(risk(c, 'dynamic_eval', 'medium', 'sources a file whose name is only known at run time', 'obfuscated_command'));
    return out;
  }
  if (how === 'eval' || programUnknown(text)) {
    const what = how === 'eval' ? 'evaluates text computed at run time' : `runs ${how === 'shell' ? 'a shell script' : `${program} code`} computed at run time`;
    out.push(risk(c, 'dynamic_eval', 'medium', what, 'obfuscated_command'));
  }
  return out;
}

/** Does the text look like a program: an ELF or PE binary, or a script with a `#!` line? */
export function looksLikeProgram(content: string): string | null {
  if (content.startsWith('\u007fELF')) return 'an ELF executable';
  if (content.startsWith('MZ')) return 'a Windows executable';
  if (content.startsWith('#!')) return 'a script';
  return null;
}

/** `chmod +x f` where f was just written from decoded data: a dropper getting ready to run. */
export function makesDecodedExecutable(c: ShellCommand, decoded: ReadonlySet<string>, keyOf: (p: string) => string): string | null {
  if (c.unwrapped.program !== 'chmod') return null;
  const [mode, ...targets] = flagsOf(c.unwrapped.args).operands;
  if (!/x|^[0-7]*[1357][0-7]{0,2}$/.test(mode ?? '')) return null;
  return targets.find((t) => decoded.has(keyOf(t))) ?? null;
}
