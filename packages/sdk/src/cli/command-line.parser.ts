/**
 * The `cds` command line, parsed by hand into one typed command. Pure: argv and the
 * environment in, a CliCommand out, or a UsageError saying what is wrong.
 */
import { parseDuration, parsePositiveInt } from './duration.parser';
import { UsageError } from './usage.error';

export interface Connection {
  url: string;
  key: string;
}

export type CliCommand =
  | { kind: 'help' }
  | { kind: 'check'; conn: Connection; text: string; policyId: string; language?: string; json: boolean }
  | { kind: 'policies-apply'; conn: Connection; file: string; policyId: string; json: boolean }
  | { kind: 'policies-test'; conn: Connection; file: string; casesFile: string }
  | { kind: 'policies-impact'; conn: Connection; file: string; policyId: string; sinceMs: number; limit?: number; json: boolean }
  | { kind: 'decisions-tail'; conn: Connection; intervalMs: number; policyId?: string; once: boolean; lines: number; json: boolean };

export const USAGE = `Usage: cds <command> [options]

Commands:
  check TEXT [--policy ID] [--language xx] [--json]
      Check a text (policy default: "default") and print the decision.
  policies apply FILE [--id ID] [--json]
      Save the YAML policy in FILE (id: the file name without extension).
  policies test FILE --cases CASES.yaml
      Run the cases ({text | scores | signals, expect}) against the unsaved policy;
      exit 1 on any mismatch.
  policies impact FILE --policy ID [--since 7d] [--limit N] [--json]
      Replay the decisions made under ID since then under the policy in FILE.
  decisions tail [--interval 2s] [--policy ID] [--lines 10] [--once] [--json]
      Print the newest decisions, then new ones as they come, until Ctrl-C.

Connection: --url URL (or CDS_URL), --key KEY (or CDS_API_KEY).
Exit codes: 0 ok, 1 policy test failed, 2 usage error, 3 service or network error.`;

type FlagKind = 'value' | 'boolean';
type FlagSpec = Record<string, FlagKind>;

const CONNECTION: FlagSpec = { url: 'value', key: 'value', help: 'boolean' };

interface Tokens {
  positionals: string[];
  flags: Map<string, string | true>;
}

/** `--name value`, `--name=value`, boolean `--name`, `-h`; `--` ends the flags. */
export function tokenize(argv: readonly string[], spec: FlagSpec): Tokens {
  const positionals: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg === '-h') {
      flags.set('help', true);
      continue;
    }
    if (!arg.startsWith('--') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    const kind = spec[name];
    if (!kind) throw new UsageError(`unknown option --${name}`);
    if (flags.has(name)) throw new UsageError(`--${name} given twice`);
    if (kind === 'boolean') {
      if (eq >= 0) throw new UsageError(`--${name} takes no value`);
      flags.set(name, true);
      continue;
    }
    let value: string | undefined = eq >= 0 ? arg.slice(eq + 1) : argv[i + 1];
    if (eq < 0) {
      if (value === undefined || value.startsWith('--')) throw new UsageError(`--${name} needs a value`);
      i++;
    }
    if (value === '') throw new UsageError(`--${name} needs a value`);
    flags.set(name, value);
  }
  return { positionals, flags };
}

const COMMANDS: Record<string, FlagSpec> = {
  check: { policy: 'value', language: 'value', json: 'boolean' },
  'policies apply': { id: 'value', json: 'boolean' },
  'policies test': { cases: 'value' },
  'policies impact': { policy: 'value', since: 'value', limit: 'value', json: 'boolean' },
  'decisions tail': { interval: 'value', policy: 'value', lines: 'value', once: 'boolean', json: 'boolean' },
};

/** Every flag of every command, one kind each, so the command words can be found among the flags. */
const ALL_FLAGS: FlagSpec = Object.assign({}, CONNECTION, ...Object.values(COMMANDS));

export function parseCommandLine(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): CliCommand {
  const { positionals, flags } = tokenize(argv, ALL_FLAGS);
  const [first, second] = positionals;
  const name = first === 'policies' || first === 'decisions' ? `${first} ${second ?? ''}`.trim() : (first ?? '');
  if (name === '' || name === 'help' || (flags.has('help') && !COMMANDS[name])) {
    if (name === '' && flags.size > 0 && !flags.has('help')) throw new UsageError('no command given');
    return { kind: 'help' };
  }
  const spec = COMMANDS[name];
  if (!spec) {
    if (name === 'policies') throw new UsageError('policies needs a subcommand: apply, test or impact');
    if (name === 'decisions') throw new UsageError('decisions needs a subcommand: tail');
    throw new UsageError(`unknown command "${name}"`);
  }
  for (const flag of flags.keys()) {
    if (!(flag in spec) && !(flag in CONNECTION)) {
      throw new UsageError(
        `--${flag} is not an option of ${name} (its options: ${Object.keys(spec)
          .map((f) => `--${f}`)
          .join(', ')})`,
      );
    }
  }
  if (flags.has('help')) return { kind: 'help' };
  const args = positionals.slice(name.split(' ').length);
  const str = (flag: string) => flags.get(flag) as string | undefined;
  const bool = (flag: string) => flags.get(flag) === true;
  const conn = connection(str('url') ?? env.CDS_URL, str('key') ?? env.CDS_API_KEY);

  switch (name) {
    case 'check': {
      if (args.length === 0) throw new UsageError('check needs the TEXT to check');
      const language = str('language');
      return { kind: 'check', conn, text: args.join(' '), policyId: str('policy') ?? 'default', ...(language ? { language } : {}), json: bool('json') };
    }
    case 'policies apply': {
      const file = onlyFile(name, args);
      return { kind: 'policies-apply', conn, file, policyId: str('id') ?? policyIdOfFile(file), json: bool('json') };
    }
    case 'policies test': {
      const casesFile = str('cases');
      if (!casesFile) throw new UsageError('policies test needs --cases CASES.yaml');
      return { kind: 'policies-test', conn, file: onlyFile(name, args), casesFile };
    }
    case 'policies impact': {
      const policyId = str('policy');
      if (!policyId) throw new UsageError('policies impact needs --policy ID (the stored policy whose decisions are replayed)');
      const limit = str('limit');
      return {
        kind: 'policies-impact',
        conn,
        file: onlyFile(name, args),
        policyId,
        sinceMs: parseDuration(str('since') ?? '7d', '--since'),
        ...(limit !== undefined ? { limit: parsePositiveInt(limit, '--limit') } : {}),
        json: bool('json'),
      };
    }
    case 'decisions tail': {
      if (args.length > 0) throw new UsageError(`decisions tail takes no arguments (got "${args[0]}")`);
      const policyId = str('policy');
      const lines = str('lines');
      return {
        kind: 'decisions-tail',
        conn,
        intervalMs: parseDuration(str('interval') ?? '2s', '--interval'),
        ...(policyId ? { policyId } : {}),
        once: bool('once'),
        lines: lines === undefined ? 10 : parsePositiveInt(lines, '--lines', 0),
        json: bool('json'),
      };
    }
    default:
      throw new UsageError(`unknown command "${name}"`);
  }
}

function connection(url: string | undefined, key: string | undefined): Connection {
  if (!url) throw new UsageError('no service address: set CDS_URL or pass --url');
  if (!/^https?:\/\/[^\s]+$/i.test(url)) throw new UsageError(`--url / CDS_URL must be an http(s) URL (got "${url}")`);
  if (!key) throw new UsageError('no API key: set CDS_API_KEY or pass --key');
  return { url, key };
}

function onlyFile(command: string, args: string[]): string {
  if (args.length === 0) throw new UsageError(`${command} needs a FILE`);
  if (args.length > 1) throw new UsageError(`${command} takes one FILE (got ${args.length} arguments)`);
  return args[0];
}

/** `policies/strict.v2.yaml` → `strict.v2`. */
export function policyIdOfFile(file: string): string {
  const base = file.split(/[\\/]/).pop() ?? file;
  return base.replace(/\.(ya?ml)$/i, '');
}
