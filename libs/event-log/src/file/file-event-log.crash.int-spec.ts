import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { EventEnvelope } from '@cds/events';
import { Condition, TempDir } from './file-log.fixtures';

/**
 * A child process appends in a loop (16 concurrent callers, 1-3 events per call, small
 * segments so it rolls often) and prints every acknowledged offset; the parent SIGKILLs
 * it mid-stream, three times over the same directory. Then every acknowledged offset
 * must be readable, holding exactly the event acknowledged there.
 */
const REGISTER = path.resolve(__dirname, '../../test/swc-register.js');
const ADAPTER = path.resolve(__dirname, 'file-event-log.adapter.ts');

const CHILD = `
const { FileEventLog } = require(${JSON.stringify(ADAPTER)});
const [dir, round] = process.argv.slice(2);
const make = (id, w, seq) => ({ id, type: 'crash.test', version: 1, occurredAt: '2026-01-01T00:00:00.000Z',
  tenantId: 't', key: 'w' + w, data: { round: Number(round), w, seq, pad: 'x'.repeat((seq * 37) % 700) } });
(async () => {
  const log = await FileEventLog.open({ dir, segmentBytes: 64 * 1024, logger: { warn: (m) => process.stderr.write(m + '\\n'), log() {} } });
  const worker = async (w) => {
    for (let seq = 0; ; seq += 3) {
      const events = [];
      for (let i = 0; i < 1 + (seq % 3); i++) events.push(make('r' + round + '-w' + w + '-' + (seq + i), w, seq + i));
      const positions = await log.append('decisions', events);
      process.stdout.write(positions.map((p, i) => p.offset + ' ' + events[i].id + '\\n').join(''));
    }
  };
  for (let w = 0; w < 16; w++) worker(w).catch((e) => { process.stderr.write(String(e) + '\\n'); process.exit(1); });
})();
`;

function expectedEvent(id: string): EventEnvelope {
  const [, round, w, seq] = /^r(\d+)-w(\d+)-(\d+)$/.exec(id)!.map(Number);
  return {
    id,
    type: 'crash.test',
    version: 1,
    occurredAt: '2026-01-01T00:00:00.000Z',
    tenantId: 't',
    key: `w${w}`,
    data: { round, w, seq, pad: 'x'.repeat((seq * 37) % 700) },
  };
}

/** Run the child until it has acknowledged at least `acks` events, then SIGKILL it. */
async function appendUntilKilled(dir: string, script: string, round: number, acks: number): Promise<Map<number, string>> {
  const acked = new Map<number, string>();
  const duplicates: string[] = [];
  const enough = new Condition();
  const child = spawn(process.execPath, ['-r', REGISTER, script, dir, String(round)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let partial = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout.on('data', (d: Buffer) => {
    const lines = (partial + d.toString()).split('\n');
    partial = lines.pop()!;
    for (const line of lines) {
      const [offset, id] = line.split(' ');
      if (acked.has(Number(offset))) duplicates.push(line);
      acked.set(Number(offset), id);
    }
    enough.changed();
  });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code)));
  let killed = false;
  const died = exited.then((how) => {
    if (!killed) throw new Error(`child exited early (${how}): ${stderr}`);
  });
  await Promise.race([enough.wait(() => acked.size >= acks, 20_000, `${acks} acknowledged appends`), died]);
  killed = true;
  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
  expect(duplicates).toEqual([]);
  return acked;
}

describe('FileEventLog crash safety', () => {
  let tmp: TempDir;
  beforeEach(() => {
    tmp = new TempDir();
  });
  afterEach(async () => {
    await tmp.cleanup();
  });

  it('keeps every acknowledged event across SIGKILLs mid-stream', async () => {
    const script = path.join(tmp.path, 'child.js');
    const dir = path.join(tmp.path, 'log');
    writeFileSync(script, CHILD);
    const acked = new Map<number, string>();
    for (const [round, acks] of [
      [1, 500],
      [2, 3000],
      [3, 1500],
    ]) {
      for (const [offset, id] of await appendUntilKilled(dir, script, round, acks)) {
        expect(acked.has(offset)).toBe(false);
        acked.set(offset, id);
      }
    }

    const log = await tmp.open({ dir });
    const end = (await log.endOffsets('decisions')).get(0)!;
    const all = await log.read('decisions', 0, 0, end + 1);
    expect(all.map((s) => s.offset)).toEqual(Array.from({ length: end }, (_, i) => i));
    expect(Math.max(...acked.keys())).toBeLessThan(end);
    for (const [offset, id] of acked) expect(all[offset].event).toEqual(expectedEvent(id));
    for (const stored of all) expect(stored.event).toEqual(expectedEvent(stored.event.id));
  }, 60_000);
});
