import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS } from './corpus';
import { renderReport, runCase, summarize } from './corpus-runner';
import { HELD_OUT_FIRST_RUN } from './held-out-cases';

describe('guardrail corpus', () => {
  const results = CORPUS.map(runCase);

  it('has at least 150 cases, ids unique, roughly half safe', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(150);
    expect(new Set(CORPUS.map((c) => c.id)).size).toBe(CORPUS.length);
    const safe = CORPUS.filter((c) => c.safe).length;
    expect(safe / CORPUS.length).toBeGreaterThan(0.4);
    expect(safe / CORPUS.length).toBeLessThan(0.6);
  });

  it.each(results.map((r) => [r.c.id, r] as const))('%s', (_id, r) => {
    expect({ action: r.verdict.action, categories: [...r.verdict.categories].sort(), requiresApproval: r.verdict.requiresApproval }).toEqual({
      action: r.c.expect.action,
      categories: [...r.c.expect.categories].sort(),
      requiresApproval: r.c.expect.requiresApproval ?? r.verdict.requiresApproval,
    });
    expect(r.verdict.reasons.length).toBeGreaterThanOrEqual(r.verdict.categories.length);
  });

  it('reports its figures (written to CORPUS_RESULTS.md with GUARDRAILS_CORPUS_REPORT=1)', () => {
    const summary = summarize(results);
    const heldOut = summarize(results.filter((r) => r.c.id.startsWith('ho-')));
    if (process.env.GUARDRAILS_CORPUS_REPORT === '1') {
      writeFileSync(join(__dirname, '..', '..', 'CORPUS_RESULTS.md'), renderReport(summary, { firstRun: HELD_OUT_FIRST_RUN, now: heldOut }));
    }
    expect(heldOut.total).toBe(HELD_OUT_FIRST_RUN.total);
    expect(summary.falsePositives).toBe(0);
    expect(summary.passed).toBe(summary.total);
  });
});
