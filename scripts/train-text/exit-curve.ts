/**
 * Why an exit plan meets the limits or not: per candidate layer (and the two rules, both
 * sides of the threshold or clearly benign only), across margins, the share of chunks that
 * leave, the encoder work, the decisions changed and the any-unsafe AUPRC lost on the dev
 * split, overall and in the worst language (languages of ≥ 200 rows, as the limits count).
 */
import { LOCAL_TEXT_CATEGORIES, LOCAL_TEXT_SIGNAL_FOLDING, LocalTextCategory, LocalTextSignal } from '@cds/providers';
import { logit } from '../../libs/providers/src/local-embedding/embedding-exit';
import { DEFAULT_POLICY_THRESHOLDS } from './embedding-scoring';
import { ExitFigures, LAST_LAYER, PlanExit, simulate } from './exit-plan';
import type { SplitData } from './exit-model';

export const CURVE_MARGINS = [0, 0.5, 1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10, 12];

const pct = (x: number) => `${(x * 100).toFixed(2)}`;

function worst(f: ExitFigures): { changed: [string, number]; auprc: [string, number] } {
  let changed: [string, number] = ['-', 0];
  let auprc: [string, number] = ['-', 0];
  for (const [lang, l] of Object.entries(f.byLanguage)) {
    if (l.rows < 200) continue;
    if (l.changed / l.rows > changed[1]) changed = [lang, l.changed / l.rows];
    const loss = l.anyUnsafe ? l.anyUnsafe.full - l.anyUnsafe.exit : 0;
    if (loss > auprc[1]) auprc = [lang, loss];
  }
  return { changed, auprc };
}

/** One table row: margin | left early % | work % | changed % (added/dropped) | AUPRC lost | worst language changed | worst language AUPRC lost | changed by category */
export function curveRow(exits: PlanExit[], f: ExitFigures): string {
  const chunks = Object.values(f.leftAt).reduce((a, b) => a + b, 0);
  const early = chunks - (f.leftAt[LAST_LAYER] ?? 0);
  const w = worst(f);
  const byCat = LOCAL_TEXT_CATEGORIES.filter((c) => f.changedByCategory[c] > 0)
    .map((c) => `${c} ${f.changedByCategory[c]}`)
    .join(', ');
  return `| ${exits.map((e) => e.margin).join('+')} | ${pct(early / Math.max(1, chunks))} | ${pct(f.computeShare)} | ${pct(f.changedShare)} (${f.added}/${f.dropped}) | ${(f.anyUnsafe.full - f.anyUnsafe.exit).toFixed(4)} | ${w.changed[0]} ${pct(w.changed[1])} | ${w.auprc[0]} ${w.auprc[1].toFixed(4)} | ${byCat} |`;
}

/** Per category, how far (logits) a chunk's probed signals are below its threshold (the smallest). */
function belowBy(signals: Record<LocalTextSignal, number>, probed: LocalTextSignal[]): Record<LocalTextCategory, number> {
  const out = {} as Record<LocalTextCategory, number>;
  for (const c of LOCAL_TEXT_CATEGORIES) {
    const t = logit(DEFAULT_POLICY_THRESHOLDS[c]);
    const sigs = LOCAL_TEXT_SIGNAL_FOLDING[c].filter((x) => probed.includes(x));
    out[c] = Math.min(...sigs.map((x) => t - logit(Math.min(1 - 1e-12, Math.max(1e-12, signals[x])))));
  }
  return out;
}

/**
 * The most a benign-only exit could let go: the share of embedded chunks the full model
 * itself answers at least `margin` logits below every threshold (a perfect estimate would
 * let exactly these go and change nothing); and, for the chunks of that kind that an
 * exit's estimates keep (at the same margin), which category's estimate kept them.
 */
function printCeiling(dev: SplitData, candidates: number[], log: (m: string) => void): void {
  const probed = dev.signals.filter((x) => LOCAL_TEXT_CATEGORIES.some((c) => LOCAL_TEXT_SIGNAL_FOLDING[c].includes(x)));
  const embedded = dev.chunkFull.filter((_, r) => !dev.cleared[r]);
  const total = embedded.reduce((a, cs) => a + cs.length, 0);
  const fullMin = dev.chunkFull.map((cs) => cs.map((s) => Math.min(...Object.values(belowBy(s, probed)))));
  log(`\nceiling: embedded chunks the full model answers at least m logits below every threshold (${total} chunks)`);
  log(`| m | share | ${candidates.map((l) => `kept by layer ${l}'s estimate, by the category nearest its threshold`).join(' | ')} |`);
  log(`|---|---|${candidates.map(() => '---|').join('')}`);
  for (const m of [1, 2, 3, 4]) {
    let n = 0;
    const kept = candidates.map(() => Object.fromEntries(LOCAL_TEXT_CATEGORIES.map((c) => [c, 0])) as Record<LocalTextCategory, number>);
    dev.chunkFull.forEach((cs, r) => {
      if (dev.cleared[r]) return;
      cs.forEach((_, k) => {
        if (fullMin[r][k] < m) return;
        n++;
        candidates.forEach((l, i) => {
          const est = belowBy(dev.early.get(l)!.signals[r][k], probed);
          const nearest = LOCAL_TEXT_CATEGORIES.reduce((a, c) => (est[c] < est[a] ? c : a));
          if (est[nearest] < m) kept[i][nearest]++;
        });
      });
    });
    const cells = kept.map((byCat) => {
      const sum = Object.values(byCat).reduce((a, b) => a + b, 0);
      return `${pct(sum / Math.max(1, n))} % (${LOCAL_TEXT_CATEGORIES.map((c) => `${c} ${byCat[c]}`).join(', ')})`;
    });
    log(`| ${m} | ${pct(n / Math.max(1, total))} % | ${cells.join(' | ')} |`);
  }
}

export function printCurves(dev: SplitData, candidates: number[], log: (m: string) => void): void {
  const none = simulate(dev, []);
  log(
    `dev: ${none.rows} rows, ${none.embeddedRows} embedded; any-unsafe AUPRC of the full model ${none.anyUnsafe.full.toFixed(4)} (${none.anyUnsafe.positives} positives)`,
  );
  log(
    `languages (rows, embedded, any-unsafe positives): ${Object.entries(none.byLanguage)
      .map(([l, x]) => `${l} ${x.rows}/${x.embedded}/${x.anyUnsafe?.positives ?? '-'}`)
      .join(', ')}`,
  );
  printCeiling(dev, candidates, log);
  for (const benignOnly of [false, true])
    for (const layer of candidates) {
      log(`\nlayer ${layer}, ${benignOnly ? 'clearly benign only' : 'clearly benign or clearly past'}`);
      log(
        '| margin | left early % | work % | changed % (added/dropped) | AUPRC lost | worst language changed % | worst language AUPRC lost | changed by category |',
      );
      log('|---|---|---|---|---|---|---|---|');
      for (const margin of CURVE_MARGINS) {
        const exits = [{ layer, margin, benignOnly }];
        log(curveRow(exits, simulate(dev, exits)));
      }
    }
}
