/**
 * Programs that take a command line as text and have a shell run it, now or later:
 * `tmux new-session 'cmd'`, `tmux send-keys 'cmd' Enter` (typed into a pane),
 * `script -c 'cmd'`, `parallel 'cmd {}' ::: args`. Their scripts are analysed like `bash -c`.
 */
import { execOptionScripts } from './exec-options';
import { skipWrapper } from './shell-wrappers';

export interface LauncherScript {
  script: string;
  via: string;
}

const MAX_INPUTS = 16;

/** tmux commands that run a shell command, with their short options that take a value. */
const TMUX_COMMANDS: Readonly<Record<string, string>> = {
  'new-session': 'cefFnstxy',
  new: 'cefFnstxy',
  'new-window': 'ceFnt',
  neww: 'ceFnt',
  'split-window': 'ceFlt',
  splitw: 'ceFlt',
  'respawn-pane': 'cet',
  respawnp: 'cet',
  'respawn-window': 'cet',
  respawnw: 'cet',
  'run-shell': 'cdt',
  run: 'cdt',
  'display-popup': 'bcdehsStTwxy',
  popup: 'bcdehsStTwxy',
  'if-shell': 't',
  if: 't',
  'pipe-pane': 't',
  pipep: 't',
  'send-keys': 'Nt',
  send: 'Nt',
};
const TMUX_GLOBAL_VALUES = new Set(['-f', '-L', '-S', '-T']);
/** Keys that submit a typed line; other named keys type nothing that runs. */
const ENTER_KEYS = /^(?:enter|kpenter|c-m|c-j)$/i;
const NAMED_KEY = /^(?:[CMS]-.{1,12}|escape|tab|space|bspace|up|down|left|right|home|end|npage|ppage|ic|dc|f\d{1,2})$/i;

function tmuxScripts(args: readonly string[]): LauncherScript[] {
  const out: LauncherScript[] = [];
  let i = 0;
  for (; i < args.length && args[i].startsWith('-') && args[i] !== '--'; i++) {
    if (args[i] === '-c') out.push({ script: args[i + 1] ?? '', via: 'tmux -c' });
    if (args[i] === '-c' || TMUX_GLOBAL_VALUES.has(args[i])) i++;
  }
  // Several tmux commands may be chained with `;` (written `\;` in a shell).
  const commands: string[][] = [[]];
  for (const a of args.slice(i)) {
    if (a === ';') commands.push([]);
    else commands[commands.length - 1].push(a.endsWith('\\;') ? a.slice(0, -2) : a);
  }
  for (const [name, ...rest] of commands) {
    const values = name === undefined ? undefined : TMUX_COMMANDS[name];
    if (values === undefined) continue;
    let k = 0;
    for (; k < rest.length && rest[k].startsWith('-') && rest[k].length > 1; k++) {
      if (rest[k] === '--') {
        k++;
        break;
      }
      const cut = [...rest[k].slice(1)].findIndex((ch) => values.includes(ch));
      if (cut >= 0 && cut === rest[k].length - 2) k++;
    }
    const operands = rest.slice(k);
    if (operands.length === 0) continue;
    if (name === 'send-keys' || name === 'send') {
      const typed = operands.map((o) => (ENTER_KEYS.test(o) ? '\n' : /^space$/i.test(o) ? ' ' : NAMED_KEY.test(o) ? '' : o)).join('');
      out.push({ script: typed, via: 'tmux send-keys' });
    } else {
      out.push({ script: name === 'if-shell' || name === 'if' ? operands[0] : operands.join(' '), via: `tmux ${name}` });
    }
  }
  return out;
}

const SCRIPT_SPEC = {
  argOptions: ['-E', '--echo', '-I', '--log-in', '-O', '--log-out', '-B', '--log-io', '-T', '--log-timing', '-m', '--logging-format', '-o', '--output-limit'],
  scriptOptions: ['-c', '--command'],
};

const PARALLEL_SPEC = {
  argOptions: [
    '-a',
    '--arg-file',
    '--colsep',
    '-C',
    '-d',
    '--delimiter',
    '-E',
    '-I',
    '-j',
    '--jobs',
    '-P',
    '--max-procs',
    '-L',
    '--max-lines',
    '-n',
    '--max-args',
    '-N',
    '-S',
    '--sshlogin',
    '--sshloginfile',
    '--slf',
    '--joblog',
    '--results',
    '--res',
    '--tmpdir',
    '--workdir',
    '--wd',
    '--timeout',
    '--halt',
    '--retries',
    '--delay',
    '--load',
    '--memfree',
    '--tagstring',
    '--env',
    '--basefile',
    '--bf',
    '--return',
    '--block',
    '--recstart',
    '--recend',
    '--header',
    '-s',
    '--max-chars',
    '--sshdelay',
    '--termseq',
    '--limit',
    '--ssh',
  ],
};
const INPUT_SEPARATOR = /^::::?\+?$/;
const REPLACEMENT = /\{[0-9]{0,3}(?:\.|\/|\/\/|\/\.|#|%)?\}/g;
const HAS_REPLACEMENT = new RegExp(REPLACEMENT.source);

/** `parallel CMD ::: a b` runs `CMD a` and `CMD b`; `{}` marks where the input goes; no CMD runs the inputs. */
function parallelScripts(args: readonly string[]): LauncherScript[] {
  const start = skipWrapper(args, 0, PARALLEL_SPEC).index;
  const sep = args.findIndex((a, k) => k >= start && INPUT_SEPARATOR.test(a));
  const template = args.slice(start, sep < 0 ? args.length : sep).join(' ');
  const inputs: string[] = [];
  if (sep >= 0 && args[sep].startsWith(':::') && !args[sep].startsWith('::::')) {
    for (let k = sep + 1; k < args.length && !INPUT_SEPARATOR.test(args[k]) && inputs.length < MAX_INPUTS; k++) inputs.push(args[k]);
  }
  if (template === '') return inputs.map((script) => ({ script, via: 'parallel' }));
  if (inputs.length === 0) return [{ script: template.replace(REPLACEMENT, ''), via: 'parallel' }];
  return inputs.map((input) => ({
    script: HAS_REPLACEMENT.test(template) ? template.replace(REPLACEMENT, () => input) : `${template} ${input}`,
    via: 'parallel',
  }));
}

export function launcherScripts(program: string, args: readonly string[]): LauncherScript[] {
  if (program === 'tmux') return tmuxScripts(args);
  if (program === 'script') {
    // `script -q /dev/null -c cmd`: options may follow the log file.
    const scripts = skipWrapper(args, 0, SCRIPT_SPEC).scripts;
    for (let k = 0; k < args.length && scripts.length === 0; k++) if (args[k] === '-c' || args[k] === '--command') scripts.push(args[k + 1] ?? '');
    return scripts.map((script) => ({ script, via: 'script -c' }));
  }
  if (program === 'parallel') return parallelScripts(args);
  return execOptionScripts(program, args);
}

/** `parallel` without `:::` takes its inputs from stdin, like xargs. */
export function readsArgsFromStdin(program: string, args: readonly string[]): boolean {
  return program === 'parallel' && !args.some((a) => INPUT_SEPARATOR.test(a));
}
