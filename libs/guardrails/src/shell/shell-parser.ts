/**
 * Splits a command string into simple commands (on `;`, `&&`, `||`, `|`, `&`, newlines,
 * subshell parentheses), unquotes them, peels off wrappers and recurses into everything
 * that runs a script of its own: `$(...)`, backticks, `<(...)`, `bash -c`, `eval`,
 * `su -c`, `ssh host cmd`, `find -exec`, literals piped into a shell. Depth, command count
 * and total characters analysed are capped; hitting a cap is reported, never ignored.
 */
import { normalizePath, PLACEHOLDER_WORKSPACE } from '../paths/path-normalizer';
import { LexHost, LexWord, ShellLexer, UNKNOWN_EXPANSION } from './shell-lexer';
import { INTERPRETERS, nestedScripts, SHELL_PROGRAMS, unwrapCommand, UnwrappedCommand } from './shell-command';
import { foundUnder, MAX_FOUND_STARTS, printedPathRoots, xargsReplaceString } from './found-paths';
import { shellCallsIn } from './interpreter-code';
import { LoopHeader, loopHeader, LoopTracker, readLoopHeader, readVariables } from './shell-loops';

export const MAX_SHELL_DEPTH = 4;
export const MAX_SHELL_COMMANDS = 256;
export const MAX_SHELL_CHARS = 65_536;
const MAX_VARIABLES = 64;
const MAX_VARIABLE_LENGTH = 1024;

export interface ShellRedirect {
  /** The operator without its file descriptor: `>`, `>>`, `>&`, `<`, `<<<`... */
  op: string;
  /** File descriptor before the operator (`2` in `2>/dev/null`), '' when none. */
  fd: string;
  target: string;
}

export interface ShellCommand {
  /** argv as the shell would see it, assignments and reserved words removed. */
  argv: string[];
  /** Per argv entry: contains an expansion of unknown value. */
  dynamic: boolean[];
  assignments: Array<[string, string]>;
  redirects: ShellRedirect[];
  /** Commands of the substitutions in this command's words and redirect targets. */
  substituted: ShellCommand[];
  pipeline: number;
  stage: number;
  depth: number;
  /** Directory it runs in, as far as the script's own `cd` commands tell. */
  cwd: string;
  /** How a nested command was reached (`bash -c`, `$(...)`, `eval`...); null at top level. */
  via: string | null;
  /** Every level it was reached through, outermost first (`tar (a command it runs)`, `sh -c`); [] at top level. */
  origins: readonly string[];
  /** Read in a function's body where it is defined (its arguments unknown); it runs again, followed, where called. */
  inDefinition: boolean;
  /** The command that runs this one with arguments it supplies (`find -exec`, `xargs`, `parallel`); null otherwise. */
  from: ShellCommand | null;
  /** Known text on its stdin: a literal piped in (`echo '…' | python3`) or a herestring; absent when unknown. */
  stdin?: string;
  unwrapped: UnwrappedCommand;
}

export interface ParsedShell {
  commands: ShellCommand[];
  /** Names of shell functions defined anywhere in the script. */
  functions: string[];
  truncated: boolean;
  depthExceeded: boolean;
}

const RESERVED_LEADING = new Set(['!', '{', '}', '(', ')', 'then', 'do', 'else', 'if', 'elif', 'while', 'until', 'fi', 'done', 'esac']);
/** `x=v`, `x+=v` (appends) and `a[k]=v` (an element: the variable itself stays as it was). */
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)(\[[^\]]{0,256}\])?(\+?)=(.*)$/s;
const CRON_FILE = /^\/etc\/crontab$|^\/etc\/cron\.(?:d|hourly|daily|weekly|monthly)\/|^\/var\/spool\/cron\//;
const SEPARATORS = new Set([';', '&', '&&', '||', '(', ')']);

class ParseContext implements LexHost {
  readonly commands: ShellCommand[] = [];
  readonly functions = new Set<string>();
  /** Bodies of `name() { ...; }` functions, run again with their arguments when called with literals. */
  private readonly functionBodies = new Map<string, string>();
  /** Arguments of the function calls being followed, innermost last. */
  private readonly calls: Array<{ name: string; args: string[] }> = [];
  readonly vars = new Map<string, string>();
  /** Substitutions that computed variables of unknown value (`x=$(curl ...)`). */
  private readonly varOrigins = new Map<string, number[]>();
  readonly substitutions: ShellCommand[][] = [];
  /** Files the script itself wrote with known content (`echo ... > /tmp/x.sh`), by path key. */
  readonly written = new Map<string, string>();
  truncated = false;
  depthExceeded = false;
  cwd = PLACEHOLDER_WORKSPACE;
  /** Function bodies being read where they are defined (nested definitions count). */
  private definitions = 0;
  private nextPipeline = 0;
  private budget = MAX_SHELL_CHARS;
  private depth = 0;
  /** The command whose derived command is being built (pushDerived). */
  private runner: ShellCommand | null = null;
  /** The vias of the scripts being parsed, outermost first. */
  private readonly viaStack: string[] = [];

  variable(name: string): string | undefined {
    return this.vars.get(name);
  }

  positional(name: string): string | undefined {
    const call = this.calls[this.calls.length - 1];
    if (!call) return undefined;
    if (name === '#') return String(call.args.length);
    if (name === '@' || name === '*') return call.args.join(' ');
    return call.args[Number(name) - 1] ?? '';
  }

  origins(name: string): readonly number[] | undefined {
    return this.varOrigins.get(name);
  }

  substitute(script: string, via: string): { id: number; output: string | null } {
    const commands = this.parse(script, this.depth + 1, via);
    this.substitutions.push(commands);
    return { id: this.substitutions.length - 1, output: literalOutput(commands.filter((c) => c.depth === this.depth + 1)) };
  }

  parse(src: string, depth: number, via: string | null): ShellCommand[] {
    if (depth > MAX_SHELL_DEPTH) {
      this.depthExceeded = true;
      return [];
    }
    if (src.length > this.budget) {
      this.truncated = true;
      src = src.slice(0, Math.max(0, this.budget));
    }
    this.budget -= src.length;
    const start = this.commands.length;
    const outerDepth = this.depth;
    this.depth = depth;
    if (via !== null) this.viaStack.push(via);
    try {
      this.parseTokens(new ShellLexer(src, this), depth, via);
    } finally {
      if (via !== null) this.viaStack.pop();
      this.depth = outerDepth;
    }
    return this.commands.slice(start);
  }

  private parseTokens(lexer: ShellLexer, depth: number, via: string | null): void {
    let words: LexWord[] = [];
    let redirects: Array<{ op: string; fd: string; target: LexWord }> = [];
    let pendingRedirect: { op: string; fd: string } | null = null;
    let pipeline = this.nextPipeline++;
    let stage = 0;
    let stages: ShellCommand[] = [];
    let body: { name: string; start: number; depth: number } | null = null;
    const loops = new LoopTracker();
    /** A `while read` loop just closed by `done`, whose input may follow: `done < <(cmd)`. */
    let readInput: { names: readonly string[]; body: string } | null = null;
    const finish = () => {
      const loop = loopHeader(words);
      if (loop) this.enterLoop(loop, loops);
      const reads = readLoopHeader(words);
      const cmd = this.finishCommand(words, redirects, pipeline, stage, depth, via);
      if (reads) this.enterReadLoop(reads, stages, loops);
      if (readInput !== null) this.readLoopInput(readInput, redirects, depth, via);
      readInput = null;
      if (cmd) stages.push(cmd);
      words = [];
      redirects = [];
      pendingRedirect = null;
    };
    const endPipeline = () => {
      this.finishPipeline(stages, depth);
      stages = [];
      pipeline = this.nextPipeline++;
      stage = 0;
    };
    for (let tok = lexer.next(); tok !== null && !this.truncated; tok = lexer.next()) {
      if (body && tok.t === 'word' && !tok.quoted && (tok.text === '{' || tok.text === '}')) {
        const open = body.start >= 0;
        body = this.trackBody(body, tok.text, lexer);
        const nowOpen = body !== null && body.start >= 0;
        if (nowOpen !== open) this.definitions += nowOpen ? 1 : -1;
      }
      if (tok.t === 'word') {
        if (words.length === 0 && pendingRedirect === null && !tok.quoted && (tok.text === 'do' || tok.text === 'done')) {
          const closed = loops.reserved(tok.text, lexer.position, lexer.source);
          if (closed?.header.reads) readInput = { names: closed.header.reads, body: closed.body };
          else if (closed) this.repeatLoop(closed.header, closed.body, depth, via);
        }
        if (pendingRedirect !== null) {
          redirects.push({ ...pendingRedirect, target: tok });
          pendingRedirect = null;
        } else {
          words.push(tok);
        }
      } else if (tok.t === 'redir') {
        pendingRedirect = { op: tok.op, fd: tok.fd ?? '' };
      } else if (tok.op === '(' && this.isFunctionDefinition(words, lexer)) {
        body = { name: words[words.length - 1].text, start: -1, depth: 0 };
        words = [];
      } else if (tok.op === '|' || tok.op === '|&') {
        finish();
        stage++;
      } else if (SEPARATORS.has(tok.op)) {
        finish();
        endPipeline();
      }
    }
    finish();
    endPipeline();
    if (body && body.start >= 0) this.definitions--;
  }

  /** The body is read in place with the loop's first word (or with the variable unknown). */
  private enterLoop(loop: LoopHeader, loops: LoopTracker): void {
    loops.header(loop);
    this.varOrigins.delete(loop.name);
    if (loop.values === null || loop.values.length === 0) this.vars.delete(loop.name);
    else this.setVariable(loop.name, loop.values[0]);
  }

  /**
   * `CMD | while read a b; do BODY; done`: BODY sees each variable as a line of CMD's output, only
   * known at run time, that came from CMD (so `ps | grep sshd | awk … | while read p; do kill $p`
   * kills sshd, and `curl … | while read l; do eval "$l"` evaluates a download). A variable
   * holding whole lines of paths printed by `find`/`grep -l` is a file under each directory
   * searched, as with `xargs`: BODY is read once per directory.
   */
  private enterReadLoop(names: readonly string[], upstream: readonly ShellCommand[], loops: LoopTracker): void {
    for (const name of names) {
      this.vars.delete(name);
      this.varOrigins.delete(name);
    }
    // No input piped in: it may follow the loop (`done < <(cmd)`), where the body is read again with it.
    if (upstream.length === 0) loops.header({ name: names[0], values: null, kind: 'a while read loop', reads: names });
    const found = names.length === 1 ? foundInput(upstream) : [];
    if (found.length > 0) {
      const loop = { name: names[0], values: found.slice(0, MAX_FOUND_STARTS), kind: 'a while read loop' };
      loops.header(loop);
      this.setVariable(loop.name, loop.values[0]);
    }
    if (upstream.length === 0 || this.varOrigins.size >= MAX_VARIABLES) return;
    this.substitutions.push([...upstream]);
    for (const name of names) this.varOrigins.set(name, [this.substitutions.length - 1]);
  }

  /**
   * `while read p; do BODY; done < <(CMD)`: the body was read with the variables unknown; read
   * it again knowing the lines come from CMD (and, for paths CMD finds, once per directory).
   */
  private readLoopInput(
    loop: { names: readonly string[]; body: string },
    redirects: ReadonlyArray<{ op: string; target: LexWord }>,
    depth: number,
    via: string | null,
  ): void {
    const input = redirects.find((r) => r.op === '<' && r.target.substitutions.length > 0);
    const produced = input?.target.substitutions.flatMap((id) => this.substitutions[id] ?? []).filter((c) => c.depth === depth + 1) ?? [];
    if (produced.length === 0 || this.truncated) return;
    const last = produced[produced.length - 1].pipeline;
    const upstream = produced.filter((c) => c.pipeline === last).sort((a, b) => a.stage - b.stage);
    const found = loop.names.length === 1 ? foundInput(upstream).slice(0, MAX_FOUND_STARTS) : [];
    const where = `a while read loop reading <(\u2026)${via === null ? '' : ` inside ${via}`}`;
    for (const value of found.length > 0 ? found : [null]) {
      if (this.truncated) return;
      for (const name of loop.names) this.vars.delete(name);
      if (value !== null) this.setVariable(loop.names[0], value);
      if (this.varOrigins.size < MAX_VARIABLES) {
        this.substitutions.push(upstream);
        for (const name of loop.names) this.varOrigins.set(name, [this.substitutions.length - 1]);
      }
      this.parse(loop.body, depth, where);
    }
  }

  /** ...and read again for each other word; the variable keeps the last one, as in the shell. */
  private repeatLoop(loop: LoopHeader, bodyText: string, depth: number, via: string | null): void {
    for (const value of loop.values?.slice(1) ?? []) {
      if (this.truncated) return;
      this.setVariable(loop.name, value);
      const shown = value.split(UNKNOWN_EXPANSION).join('$(\u2026)');
      this.parse(bodyText, depth, `${loop.kind ?? 'a for loop'} with ${loop.name}=${shown}${via === null ? '' : ` inside ${via}`}`);
    }
  }

  /** Follows the braces of a function body; records the body when its `}` closes it. */
  private trackBody(
    body: { name: string; start: number; depth: number },
    brace: '{' | '}',
    lexer: ShellLexer,
  ): { name: string; start: number; depth: number } | null {
    const at = lexer.position;
    if (at < 0) return null;
    if (brace === '{') return body.depth++ === 0 ? { ...body, start: at, depth: 1 } : body;
    if (body.start < 0 || --body.depth > 0) return body.start < 0 ? null : body;
    const end = lexer.source.lastIndexOf('}', at);
    if (end > body.start && this.functionBodies.size < MAX_VARIABLES) this.functionBodies.set(body.name, lexer.source.slice(body.start, end));
    return null;
  }

  /** `name ( )` or `function name ( )`: records the name and swallows the `)`. */
  private isFunctionDefinition(words: LexWord[], lexer: ShellLexer): boolean {
    const plain = words.filter((w) => !(w.text === 'function' && !w.quoted));
    const next = lexer.peek();
    if (plain.length !== 1 || next?.t !== 'op' || next.op !== ')') return false;
    lexer.next();
    this.functions.add(plain[0].text);
    return true;
  }

  private finishCommand(
    lexWords: LexWord[],
    lexRedirects: Array<{ op: string; fd: string; target: LexWord }>,
    pipeline: number,
    stage: number,
    depth: number,
    via: string | null,
  ): ShellCommand | null {
    let words = expandBraces(lexWords);
    while (words.length > 0 && !words[0].quoted && RESERVED_LEADING.has(words[0].text)) words = words.slice(1);
    if (words.length > 0 && words[0].text === 'function' && !words[0].quoted) {
      if (words[1]) this.functions.add(words[1].text);
      words = words.slice(2);
    }
    words = words.filter((w, k) => !(k === words.length - 1 && !w.quoted && w.text === '}'));
    const assignments: Array<[string, string]> = [];
    const assigned: LexWord[] = [];
    while (words.length > 0 && ASSIGNMENT.test(words[0].text)) {
      const m = ASSIGNMENT.exec(words[0].text) as RegExpExecArray;
      assignments.push([m[1], m[4]]);
      assigned.push(words[0]);
      words = words.slice(1);
    }
    if (words.length === 0 && lexRedirects.length === 0) {
      for (const w of assigned) this.assign(w);
      if (assignments.length === 0) return null;
    }
    if (this.commands.length >= MAX_SHELL_COMMANDS) {
      this.truncated = true;
      return null;
    }
    // Only the derived command itself was run by its runner, not what it nests in turn.
    const from = this.runner;
    this.runner = null;
    const argv = words.map((w) => w.text);
    const unwrapped = unwrapCommand(
      argv,
      words.map((w) => w.dynamic),
    );
    if (['export', 'declare', 'typeset', 'local', 'readonly'].includes(unwrapped.program)) {
      for (const w of words.slice(1)) if (ASSIGNMENT.test(w.text)) this.assign(w);
    }
    // `read x` sets x to a line of input: whatever it held before, it is now only known at run time.
    if (unwrapped.program === 'read' && !unwrapped.dynamicProgram) {
      for (const name of readVariables(unwrapped.args)) {
        this.vars.delete(name);
        this.varOrigins.delete(name);
      }
    }
    const subIds = [...words.flatMap((w) => w.substitutions), ...lexRedirects.flatMap((r) => r.target.substitutions)];
    const cmd: ShellCommand = {
      argv,
      dynamic: words.map((w) => w.dynamic),
      assignments,
      redirects: lexRedirects.map((r) => ({ op: r.op, fd: r.fd, target: r.target.text })),
      substituted: subIds.flatMap((id) => this.substitutions[id] ?? []),
      pipeline,
      stage,
      depth,
      via,
      origins: [...this.viaStack],
      inDefinition: this.definitions > 0,
      from,
      cwd: this.cwd,
      unwrapped,
    };
    this.commands.push(cmd);
    if (unwrapped.program === 'cd' || unwrapped.program === 'pushd') this.changeDirectory(cmd);
    this.followFunctionCall(cmd, words, depth);
    const script = this.writtenScriptRun(unwrapped);
    if (script) this.parse(script.content, depth + 1, `${script.path}, written earlier by this command`);
    const code = script ? null : this.writtenCodeRun(unwrapped);
    if (code)
      for (const line of shellCallsIn(code.content))
        this.parse(line, depth + 1, `${code.path}, code written earlier by this command, run by ${unwrapped.program}`);
    const herestring = cmd.redirects.find((r) => r.op === '<<<')?.target ?? null;
    for (const nested of nestedScripts(unwrapped, herestring)) {
      if (nested.script !== undefined) this.parse(nested.script, depth + 1, nested.via);
      else if (nested.argv) this.pushDerived(nested.argv, depth + 1, nested.via, cmd);
    }
    return cmd;
  }

  /** `f "rm -rf /"` after `f() { bash -c "$1"; }`: the body runs again with the literal arguments. */
  private followFunctionCall(cmd: ShellCommand, words: LexWord[], depth: number): void {
    const name = cmd.argv[0];
    const bodyText = name === undefined ? undefined : this.functionBodies.get(name);
    if (bodyText === undefined || this.calls.some((c) => c.name === name)) return;
    // An argument only known at run time stays unknown inside (marked, so the body's `eval "$1"` is escalated).
    const args = words.slice(1).map((w) => (w.dynamic && !w.text.includes(UNKNOWN_EXPANSION) ? `${w.text}${UNKNOWN_EXPANSION}` : w.text));
    this.calls.push({ name, args });
    try {
      this.parse(bodyText, depth + 1, `function ${name} called with its arguments`);
    } finally {
      this.calls.pop();
    }
  }

  /** A literal value is remembered; an unknown one forgets the old value and keeps where it came from. */
  private assign(w: LexWord): void {
    const m = ASSIGNMENT.exec(w.text);
    if (!m || m[2] !== undefined) return;
    const [, name, , append, raw] = m;
    this.varOrigins.delete(name);
    if (w.dynamic && w.substitutions.length > 0 && this.varOrigins.size < MAX_VARIABLES) this.varOrigins.set(name, [...w.substitutions]);
    if (raw.startsWith('(') && raw.endsWith(')')) return;
    // An unknown part is kept as a marker, so `d=/tmp/$(date)` still says where it points.
    const value = w.dynamic && !raw.includes(UNKNOWN_EXPANSION) ? `${raw}${UNKNOWN_EXPANSION}` : raw;
    this.setVariable(name, append ? (this.vars.get(name) ?? '') + value : value);
  }

  private changeDirectory(cmd: ShellCommand): void {
    const { args } = cmd.unwrapped;
    const k = args.findIndex((a) => !a.startsWith('-') || a === '-');
    const target = k < 0 ? '~' : args[k];
    const unknown = target === '-' || (k >= 0 && cmd.dynamic[cmd.argv.length - args.length + k] === true);
    // An unknown or `cd -` destination: keep the workspace as the best guess.
    this.cwd = unknown ? PLACEHOLDER_WORKSPACE : normalizePath(target, this.cwd).display;
  }

  /** `sh /tmp/x`, `bash x.sh`, `./x.sh` where the file was written above with known content. */
  private writtenScriptRun(u: UnwrappedCommand): { path: string; content: string } | null {
    if (this.written.size === 0) return null;
    const candidates = [
      u.programPath,
      ...(SHELL_PROGRAMS.has(u.program) || u.program === 'source' || u.program === '.' ? u.args.filter((a) => !a.startsWith('-')).slice(0, 1) : []),
    ];
    for (const path of candidates) {
      const content = path ? this.written.get(normalizePath(path, this.cwd).key) : undefined;
      if (content !== undefined) return { path, content };
    }
    return null;
  }

  /**
   * Source written earlier by this command and handed to an interpreter or to a `run`/`exec`/`eval`
   * subcommand (`go run t.go`, `v run t.v`, `python3 t.py`): the command lines its calls hand to the
   * OS (`os.system("…")`, `exec.Command("…")`) run too.
   */
  private writtenCodeRun(u: UnwrappedCommand): { path: string; content: string } | null {
    if (this.written.size === 0 || SHELL_PROGRAMS.has(u.program)) return null;
    const runs = INTERPRETERS.has(u.program.replace(/[0-9.]+$/, '')) || /^(?:run|exec|eval|execute)$/.test(u.args[0] ?? '');
    if (!runs) return null;
    for (const path of u.args.filter((a) => !a.startsWith('-'))) {
      const content = this.written.get(normalizePath(path, this.cwd).key);
      if (content !== undefined) return { path, content };
    }
    return null;
  }

  /** `unknownInput`: the marker words stand for input only known at run time (xargs), not for names found in known directories. */
  private pushDerived(argv: string[], depth: number, via: string, runner: ShellCommand, unknownInput = false): void {
    if (depth > MAX_SHELL_DEPTH) {
      this.depthExceeded = true;
      return;
    }
    const words: LexWord[] = argv.map((text) => ({
      t: 'word',
      text,
      dynamic: unknownInput && text.includes(UNKNOWN_EXPANSION),
      quoted: true,
      substitutions: [],
    }));
    this.viaStack.push(via);
    const outer = this.runner;
    this.runner = runner;
    try {
      this.finishCommand(words, [], this.nextPipeline++, 0, depth, via);
    } finally {
      this.runner = outer;
      this.viaStack.pop();
    }
  }

  /** `echo <literal> | base64 -d | sh` and `echo / | xargs rm -rf`: the input is known, so analyse what it runs. */
  private finishPipeline(stages: ShellCommand[], depth: number): void {
    const last = stages[stages.length - 1];
    const written = last?.redirects.find((r) => r.op === '>' || r.op === '>|' || r.op === '>>');
    if (written) {
      const content = literalOutput(stages);
      const key = normalizePath(written.target, last.cwd).key;
      // `>>` adds to what this command wrote before: `echo 'import os' > t.v && echo 'fn main() {…}' >> t.v`.
      const before = written.op === '>>' ? this.written.get(key) : undefined;
      const whole = content === null ? null : before === undefined ? content : `${before}\n${content}`;
      if (whole !== null && this.written.size < MAX_VARIABLES) this.written.set(key, whole.slice(0, MAX_SHELL_CHARS));
      if (content !== null && CRON_FILE.test(key)) this.parseCron(content, key === '/etc/crontab' || key.startsWith('/etc/cron.d/'), depth, written.target);
    }
    const crontab = stages.findIndex((st, k) => k > 0 && st.unwrapped.program === 'crontab' && st.unwrapped.args.includes('-'));
    if (crontab > 0) {
      const content = literalOutput(stages.slice(0, crontab));
      if (content !== null) this.parseCron(content, false, depth, 'crontab');
    }
    for (let k = 0; k < stages.length; k++) {
      const here = stages[k].redirects.find((r) => r.op === '<<<');
      const fed = k > 0 ? literalOutput(stages.slice(0, k)) : null;
      if (here !== undefined && !stages[k].dynamic.some(Boolean)) stages[k].stdin = here.target;
      else if (fed !== null) stages[k].stdin = fed;
    }
    for (let k = 1; k < stages.length; k++) {
      const u = stages[k].unwrapped;
      if (u.argsFromStdin) {
        const input = literalOutput(stages.slice(0, k));
        // An xargs with no command of its own only prints what it is given.
        const found = input === null && u.programPath !== 'xargs' ? foundInput(stages.slice(0, k)) : [];
        // parallel reads its inputs where `:::` would have given them; xargs appends them, or puts each where -I says.
        const parallel = u.program === 'parallel';
        const replace = parallel ? null : xargsReplaceString(stages[k].argv);
        // With a replace string (and `-d '\n'`, `-0`) each input line is one argument; otherwise each word.
        const lines = replace !== null || parallel || stages[k].argv.some((a) => a === '-0' || a === '--null' || /^-d\s*(?:\\n|\n)$/.test(a));
        const unknown = input === null && found.length === 0 ? runsInputAsCode(u, replace) : [];
        const extra = input?.split(lines ? /\n/ : /\s+/).filter((x) => x.trim() !== '') ?? (found.length > 0 ? found : unknown);
        const via = `${parallel ? 'parallel' : 'xargs'} with its piped input${input !== null ? '' : found.length > 0 ? ' (the paths found)' : ' (only known at run time)'}`;
        const unknownInput = extra === unknown && unknown.length > 0;
        if (replace !== null && u.args.some((a) => a.includes(replace)))
          for (const e of extra.slice(0, MAX_FOUND_STARTS))
            this.pushDerived([u.programPath, ...u.args.map((a) => a.split(replace).join(e))], depth + 1, via, stages[k], unknownInput);
        else if (extra.length > 0)
          this.pushDerived([u.programPath, ...u.args, ...(parallel ? [':::'] : []), ...extra.slice(0, 64)], depth + 1, via, stages[k], unknownInput);
        continue;
      }
      if (!SHELL_PROGRAMS.has(u.program) || u.args.some((a) => !a.startsWith('-'))) continue;
      const input = literalOutput(stages.slice(0, k));
      if (input !== null && input.trim() !== '') this.parse(input, depth + 1, `the script piped into ${u.program}`);
    }
  }

  /** Cron lines run later as root or the user: analyse their commands (schedule fields dropped). */
  private parseCron(content: string, hasUserField: boolean, depth: number, where: string): void {
    const fields = hasUserField ? 6 : 5;
    for (const line of content.split('\n').slice(0, 32)) {
      const parts = line.trim().split(/\s+/);
      const skip = parts[0]?.startsWith('@') ? (hasUserField ? 2 : 1) : fields;
      if (parts.length > skip && !parts[0].startsWith('#')) this.parse(parts.slice(skip).join(' '), depth + 1, `a cron job written to ${where}`);
    }
  }

  private setVariable(name: string, value: string): void {
    if (this.vars.size >= MAX_VARIABLES && !this.vars.has(name)) return;
    this.vars.set(name, value.slice(0, MAX_VARIABLE_LENGTH));
  }
}

/**
 * `cat cmds | xargs -I{} sh -c '{}'`, `… | xargs sh -c`, `… | xargs -I% eval %`: a shell, eval or
 * interpreter whose code is an input line only known at run time. The line stands as one unknown
 * argument, so the code is escalated like `sh -c "$x"`; other programs are not given it (an
 * unknown file for `rm` says nothing the command does not).
 */
function runsInputAsCode(u: UnwrappedCommand, replace: string | null): string[] {
  const shell = SHELL_PROGRAMS.has(u.program);
  if (replace !== null)
    return (shell || u.program === 'eval' || INTERPRETERS.has(u.program.replace(/[0-9.]+$/, ''))) && u.args.some((a) => a.includes(replace))
      ? [UNKNOWN_EXPANSION]
      : [];
  // `sh -c` with no script after it takes its script from the first argument xargs appends.
  const c = u.args.findIndex((a) => /^-[a-z]*c[a-z]*$/i.test(a));
  return shell && c >= 0 && !u.args.slice(c + 1).some((a) => !a.startsWith('-')) ? [UNKNOWN_EXPANSION] : [];
}

/** Line filters that pass on some of the paths they are given, still paths. */
const PATH_FILTERS = /^(?:grep|egrep|fgrep|head|tail|sort|uniq)$/;

/** Files a pipeline prints, as `DIR/⟨…⟩` under each directory it searches (`find /usr -name x | grep y`); [] when unknown. */
function foundInput(stages: readonly ShellCommand[]): string[] {
  let k = stages.length - 1;
  while (k > 0 && PATH_FILTERS.test(stages[k].unwrapped.program) && !stages[k].unwrapped.args.some((a) => /^-[a-zA-Z]*[oclL]/.test(a))) k--;
  const u = stages[k]?.unwrapped;
  const roots = u ? printedPathRoots(u.program, u.args) : null;
  return (roots ?? []).map(foundUnder).filter((f): f is string => f !== null);
}

/** `{rm,-rf,/}` and `x{a,b}y` expand to several words when unquoted, as in bash. */
function expandBraces(words: LexWord[]): LexWord[] {
  const out: LexWord[] = [];
  for (const w of words) {
    const m = w.quoted ? null : /^([^{}]*)\{([^{}]*,[^{}]*)\}([^{}]*)$/.exec(w.text);
    if (!m) {
      out.push(w);
      continue;
    }
    for (const alt of m[2].split(',').slice(0, 32)) {
      const text = m[1] + alt + m[3];
      if (text !== '') out.push({ ...w, text });
    }
  }
  return out;
}

/**
 * The output of a pipeline when it is a literal: `echo`/`printf` of known text, optionally
 * through `base64 -d`, `xxd -r -p` or `rev`. Anything else is unknown (null).
 */
export function literalOutput(stages: readonly ShellCommand[]): string | null {
  if (stages.length === 0 || stages.some((s) => s.pipeline !== stages[0].pipeline)) return null;
  const [first, ...rest] = stages;
  if (first.dynamic.some(Boolean)) return null;
  const herestring = first.redirects.find((r) => r.op === '<<<')?.target;
  // `base64 -d <<< X`: a decoder reading a literal is a literal too.
  let out = herestring !== undefined && !first.dynamic.some(Boolean) ? transform(first.unwrapped, herestring) : echoOutput(first.unwrapped);
  for (const s of rest) {
    if (out === null) return null;
    out = transform(s.unwrapped, out);
  }
  return out;
}

function echoOutput(u: UnwrappedCommand): string | null {
  if (u.program === 'echo') {
    let args = u.args;
    let escapes = false;
    while (args.length > 0 && /^-[neE]+$/.test(args[0])) {
      escapes ||= args[0].includes('e');
      args = args.slice(1);
    }
    return escapes ? unescape(args.join(' ')) : args.join(' ');
  }
  if (u.program === 'printf' && u.args.length > 0) {
    if (u.args[0] === '%s' || u.args[0] === '%s\\n') return u.args.slice(1).join('');
    if (u.args.length === 1 && !u.args[0].includes('%')) return unescape(u.args[0]);
    if (u.args[0] === '%b') return unescape(u.args.slice(1).join(''));
  }
  return null;
}

/** The escapes `printf` and `echo -e` understand: `\x72\x6d` is "rm". */
function unescape(s: string): string {
  return s.replace(/\\(x[0-9a-fA-F]{1,2}|0?[0-7]{1,3}|[ntr\\abfv])/g, (_m, e: string) => {
    if (e[0] === 'x') return String.fromCharCode(parseInt(e.slice(1), 16));
    if (/^[0-7]/.test(e)) return String.fromCharCode(parseInt(e, 8) & 0xff);
    return ({ n: '\n', t: '\t', r: '\r', '\\': '\\', a: '\x07', b: '\b', f: '\f', v: '\v' } as Record<string, string>)[e] ?? e;
  });
}

function transform(u: UnwrappedCommand, input: string): string | null {
  const text = input.replace(/\s+/g, '');
  if (u.program === 'base64' && u.args.some((a) => a === '-d' || a === '--decode' || a === '-D')) {
    return /^[A-Za-z0-9+/=_-]*$/.test(text) ? Buffer.from(text, 'base64').toString('utf8') : null;
  }
  if (u.program === 'xxd' && u.args.includes('-r') && u.args.includes('-p')) {
    return /^(?:[0-9a-fA-F]{2})*$/.test(text) ? Buffer.from(text, 'hex').toString('utf8') : null;
  }
  if (u.program === 'rev') return [...input.replace(/\n$/, '')].reverse().join('');
  if (u.program === 'cat' && u.args.length === 0) return input;
  return null;
}

export function parseShell(script: string): ParsedShell {
  const ctx = new ParseContext();
  ctx.parse(script, 0, null);
  return { commands: ctx.commands, functions: [...ctx.functions], truncated: ctx.truncated, depthExceeded: ctx.depthExceeded };
}

/** The stages of each pipeline, in order. */
export function pipelinesOf(parsed: ParsedShell): ShellCommand[][] {
  const byId = new Map<number, ShellCommand[]>();
  for (const c of parsed.commands) {
    const list = byId.get(c.pipeline) ?? [];
    list.push(c);
    byId.set(c.pipeline, list);
  }
  return [...byId.values()].map((l) => l.sort((a, b) => a.stage - b.stage));
}

export function isInterpreter(u: UnwrappedCommand): boolean {
  return INTERPRETERS.has(u.program.replace(/[0-9.]+$/, '')) || INTERPRETERS.has(u.program);
}

/** `program args... redirects` with wrappers stripped, single spaces: what patterns see. */
export function canonicalCommand(c: ShellCommand): string {
  const u = c.unwrapped;
  const parts = [u.program, ...(u.program === 'git' ? withoutGitGlobalOptions(u.args) : u.args)];
  for (const r of c.redirects) parts.push(`${r.fd}${r.op}${r.target}`);
  return parts.filter((p) => p !== '').join(' ');
}

const GIT_OPTIONS_WITH_VALUE = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env']);

/** `git -C repo --no-pager push` is `git push` as far as patterns go. */
function withoutGitGlobalOptions(args: readonly string[]): string[] {
  let i = 0;
  while (i < args.length && args[i].startsWith('-')) i += GIT_OPTIONS_WITH_VALUE.has(args[i]) ? 2 : 1;
  return args.slice(i);
}

/** The same with wrappers kept (`sudo rm -rf /tmp/x`), for patterns that name a wrapper. */
export function canonicalWithWrappers(c: ShellCommand): string {
  const [first, ...rest] = c.argv;
  const parts = [first === undefined ? '' : (first.split('/').pop() ?? first), ...rest];
  for (const r of c.redirects) parts.push(`${r.fd}${r.op}${r.target}`);
  return parts.filter((p) => p !== '').join(' ');
}

/** A pipeline as one line: `curl -fsSL https://x | sh`. */
export function canonicalPipeline(stages: readonly ShellCommand[]): string {
  return stages.map(canonicalWithWrappers).join(' | ');
}
