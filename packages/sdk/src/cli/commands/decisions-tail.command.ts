import type { CdsClient } from '../../cds.client';
import { CdsError } from '../../cds.error';
import type { StoredDecision } from '../../types/decisions.types';
import type { CliIo } from '../cli.io';
import type { CliCommand } from '../command-line.parser';

type TailCommand = Extract<CliCommand, { kind: 'decisions-tail' }>;

/** Each poll looks this far behind the newest decision seen, so one that was stored a
 * little late (its timestamp older than one already printed) is still printed once. */
const OVERLAP_MS = 10_000;

/**
 * The newest `lines` decisions (oldest first, as tail does), then each new one as it
 * appears, polling `GET /v1/decisions` every interval until Ctrl-C. `--once` stops after
 * the first part.
 */
export async function runDecisionsTail(client: CdsClient, cmd: TailCommand, io: CliIo): Promise<number> {
  const filter = cmd.policyId ? { policyId: cmd.policyId } : {};
  const opts = { signal: io.signal };
  const at = (d: StoredDecision) => Date.parse(d.timestamp);
  const iso = (ms: number) => new Date(ms).toISOString();
  /** Printed (or already there when the tail began), with their timestamps. */
  const seen = new Map<string, number>();
  let newest = io.now();
  const print = (d: StoredDecision) => {
    seen.set(d.decisionId, at(d));
    newest = Math.max(newest, at(d));
    io.out(cmd.json ? JSON.stringify(d) : formatDecisionLine(d));
  };
  try {
    const { decisions } = await client.listDecisions({ ...filter, limit: Math.max(cmd.lines, 1) }, opts);
    if (decisions.length > 0) newest = at(decisions[0]);
    decisions.slice(0, cmd.lines).reverse().forEach(print);
    if (cmd.once) return 0;
    if (decisions.length > 0) {
      // What was there at the start, within the overlap, is not new: only what comes after is printed.
      for await (const d of client.iterateDecisions({ ...filter, from: iso(newest - OVERLAP_MS), to: iso(newest), limit: 200 }, opts)) {
        seen.set(d.decisionId, at(d));
      }
    }
    for (;;) {
      await io.sleep(cmd.intervalMs, io.signal);
      const fresh: StoredDecision[] = [];
      try {
        for await (const d of client.iterateDecisions({ ...filter, from: iso(newest - OVERLAP_MS), limit: 200 }, opts)) {
          if (!seen.has(d.decisionId)) fresh.push(d);
        }
      } catch (err) {
        // A passing outage (the client has already retried): say so and poll again.
        if (!(err instanceof CdsError) || (err.status !== 0 && err.status !== 429 && err.status < 500)) throw err;
        io.err(`decisions tail: ${err.message}; polling again`);
        continue;
      }
      fresh.reverse().forEach(print);
      for (const [id, t] of seen) if (t < newest - OVERLAP_MS) seen.delete(id);
    }
  } catch (err) {
    if (io.signal.aborted) return 0;
    throw err;
  }
}

/** One line per decision; the content is quoted so no character of it can drive the terminal. */
export function formatDecisionLine(d: StoredDecision): string {
  const content = d.content.length > 60 ? `${d.content.slice(0, 59)}…` : d.content;
  return [d.timestamp, d.action.padEnd(5), d.decisionId, d.policyId, d.contentType, quote(content)].join('  ');
}

/** JSON.stringify escapes C0 controls; DEL, the C1 controls (CSI is \u009b) and the line separators are escaped too. */
function quote(text: string): string {
  return JSON.stringify(text).replace(/[\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
