import { CdsClient } from '../cds.client';
import { CdsError } from '../cds.error';
import type { CliIo } from './cli.io';
import { CliCommand, Connection, parseCommandLine, USAGE } from './command-line.parser';
import { runCheck } from './commands/check.command';
import { runDecisionsTail } from './commands/decisions-tail.command';
import { runPoliciesApply } from './commands/policies-apply.command';
import { runPoliciesImpact } from './commands/policies-impact.command';
import { runPoliciesTest } from './commands/policies-test.command';
import { loadPolicyCases } from './policy-cases.loader';
import { UsageError } from './usage.error';

export const EXIT = { ok: 0, testFailed: 1, usage: 2, service: 3 } as const;

/** Runs one command line; answers the exit code. */
export async function runCli(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  io: CliIo,
  clientOf: (conn: Connection) => CdsClient = (conn) => new CdsClient({ baseUrl: conn.url, apiKey: conn.key }),
): Promise<number> {
  try {
    const cmd = parseCommandLine(argv, env);
    if (cmd.kind === 'help') {
      io.out(USAGE);
      return EXIT.ok;
    }
    return await run(cmd, clientOf(cmd.conn), io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`cds: ${err.message}\nRun "cds help" for usage.`);
      return EXIT.usage;
    }
    if (err instanceof CdsError) {
      io.err(`cds: ${err.message}`);
      return EXIT.service;
    }
    throw err;
  }
}

async function run(cmd: Exclude<CliCommand, { kind: 'help' }>, client: CdsClient, io: CliIo): Promise<number> {
  switch (cmd.kind) {
    case 'check':
      return runCheck(client, cmd, io);
    case 'policies-apply':
      return runPoliciesApply(client, cmd, io, read(io, cmd.file));
    case 'policies-test': {
      const cases = loadPolicyCases(read(io, cmd.casesFile), cmd.casesFile);
      return runPoliciesTest(client, cmd, io, read(io, cmd.file), cases);
    }
    case 'policies-impact':
      return runPoliciesImpact(client, cmd, io, read(io, cmd.file));
    case 'decisions-tail':
      return runDecisionsTail(client, cmd, io);
  }
}

function read(io: CliIo, file: string): string {
  try {
    return io.readFile(file);
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}
