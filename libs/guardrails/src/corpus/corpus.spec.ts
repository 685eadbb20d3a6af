import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolvePolicy } from '../guardrail-policy';
import { CORPUS, HELD_OUT_FIRST_RUN, REVIEW_FIRST_RUN } from './corpus';
import { expectedApproval, renderReport, runCase, scoreBand, summarize } from './corpus-runner';

describe('guardrail corpus', () => {
  const results = CORPUS.map(runCase);

  it('has at least 150 cases, ids unique, roughly half safe', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(150);
    expect(new Set(CORPUS.map((c) => c.id)).size).toBe(CORPUS.length);
    const safe = CORPUS.filter((c) => c.safe).length;
    expect(safe / CORPUS.length).toBeGreaterThan(0.4);
    expect(safe / CORPUS.length).toBeLessThan(0.6);
  });

  it('states requiresApproval on every case whose action does not imply it under its policy', () => {
    expect(CORPUS.filter((c) => expectedApproval(c) === null).map((c) => c.id)).toEqual([]);
  });

  it.each(results.map((r) => [r.c.id, r] as const))('%s', (_id, r) => {
    const { action, categories, requiresApproval, riskScore } = r.verdict;
    expect({ action, categories: [...categories].sort(), requiresApproval }).toEqual({
      action: r.c.expect.action,
      categories: [...r.c.expect.categories].sort(),
      requiresApproval: expectedApproval(r.c),
    });
    const [low, high] = scoreBand(action);
    expect(riskScore).toBeGreaterThanOrEqual(low);
    expect(riskScore).toBeLessThanOrEqual(high);
    expect(requiresApproval).toBe(riskScore >= resolvePolicy(r.c.policy).requireApprovalScore);
    expect(r.verdict.reasons.length).toBeGreaterThanOrEqual(categories.length);
  });

  it('reports its figures (written to CORPUS_RESULTS.md with GUARDRAILS_CORPUS_REPORT=1)', () => {
    const summary = summarize(results);
    const heldOut = summarize(results.filter((r) => r.c.id.startsWith('ho-')));
    const review = summarize(results.filter((r) => r.c.id.startsWith('rv-')));
    if (process.env.GUARDRAILS_CORPUS_REPORT === '1') {
      const report = renderReport(summary, [
        {
          title: 'Held-out set',
          description: `${HELD_OUT_FIRST_RUN.total} of the cases (ids \`ho-*\`) were written after the engine and run once before any change, with the\nverdict a reviewer would want. First-run figures, then the same cases now:`,
          firstRun: HELD_OUT_FIRST_RUN,
          now: heldOut,
        },
        {
          title: 'Review set',
          description: `${REVIEW_FIRST_RUN.total} of the cases (ids \`rv-*\`) were written for the evasion holes of a code review (globbed paths,\nwrappers, interpreter flags, downloads saved then run, force-push spellings, skill prompts) and\nrun once before the engine was changed for them. First-run figures, then the same cases now:`,
          firstRun: REVIEW_FIRST_RUN,
          now: review,
        },
      ]);
      writeFileSync(join(__dirname, '..', '..', 'CORPUS_RESULTS.md'), report);
    }
    expect(heldOut.total).toBe(HELD_OUT_FIRST_RUN.total);
    expect(review.total).toBe(REVIEW_FIRST_RUN.total);
    expect(summary.falsePositives).toBe(0);
    expect(summary.passed).toBe(summary.total);
  });
});
