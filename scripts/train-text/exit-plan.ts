/**
 * What an exit plan does to a split: which layer each chunk leaves at (the runtime's rule:
 * the first exit whose margin the chunk's nearest probed estimate clears, else the last
 * layer), the answers that follow, and how far they move from the full model's.
 */
import { LOCAL_TEXT_CATEGORIES, LocalTextCategory, LocalTextSignal, foldLocalTextSignals } from '@cds/providers';
import { anyUnsafeLabel } from './embedding-cross';
import { DEFAULT_POLICY_THRESHOLDS } from './embedding-scoring';
import { categoryLabel } from './evaluate';
import { averagePrecision } from './metrics';
import type { SplitData } from './exit-model';

export interface AuprcPair {
  full: number;
  exit: number;
  positives: number;
}

export interface ExitFigures {
  rows: number;
  embeddedRows: number;
  /** chunks by the layer they left at */
  leftAt: Record<string, number>;
  /** rows whose decision under the built-in policy changed (some category triggered in one
   * answer and not in the other) */
  changed: number;
  changedShare: number;
  /** of the changed rows: a category triggered with the exits and not without (added), or the reverse (dropped) */
  added: number;
  dropped: number;
  changedByCategory: Record<LocalTextCategory, number>;
  anyUnsafe: AuprcPair;
  byCategory: Record<LocalTextCategory, AuprcPair | null>;
  byLanguage: Record<string, { rows: number; embedded: number; changed: number; anyUnsafe: AuprcPair | null }>;
  /** encoder work (tokens × layers) of the embedded chunks, over what every layer costs */
  computeShare: number;
}

/** One exit of a plan; `benignOnly`: a chunk leaves only when every probed estimate is the
 * margin below its threshold (never as clearly past it). */
export interface PlanExit {
  layer: number;
  margin: number;
  benignOnly?: boolean;
}

export interface PlanSim {
  exits: PlanExit[];
  figures: ExitFigures;
}

export const LAST_LAYER = 12;

const triggered = (cats: Record<LocalTextCategory, number>, c: LocalTextCategory) => cats[c] >= DEFAULT_POLICY_THRESHOLDS[c];

export function simulate(d: SplitData, exits: PlanExit[]): ExitFigures {
  const n = d.rows.idx.length;
  const leftAt: Record<string, number> = {};
  const changedByCategory = Object.fromEntries(LOCAL_TEXT_CATEGORIES.map((c) => [c, 0])) as Record<LocalTextCategory, number>;
  const fullCats: Record<LocalTextCategory, number>[] = [];
  const exitCats: Record<LocalTextCategory, number>[] = [];
  const changedRow: boolean[] = [];
  let added = 0;
  let dropped = 0;
  let work = 0;
  let fullWork = 0;
  let embeddedRows = 0;
  for (let r = 0; r < n; r++) {
    const full = d.full[r];
    let answer: Record<LocalTextSignal, number> = full;
    if (!d.cleared[r]) {
      embeddedRows++;
      answer = { ...full };
      const withHead = d.signals;
      for (const s of withHead) answer[s] = 0;
      d.chunkFull[r].forEach((chunkFull, k) => {
        let layer = LAST_LAYER;
        let signals = chunkFull;
        for (const e of exits) {
          const early = d.early.get(e.layer)!;
          if ((e.benignOnly ? early.belowBy[r][k] : early.distance[r][k]) >= e.margin) {
            layer = e.layer;
            signals = early.signals[r][k];
            break;
          }
        }
        leftAt[layer] = (leftAt[layer] ?? 0) + 1;
        work += d.tokens[r][k] * layer;
        fullWork += d.tokens[r][k] * LAST_LAYER;
        for (const s of withHead) answer[s] = Math.max(answer[s], signals[s]);
      });
    }
    const fc = foldLocalTextSignals(full);
    const ec = foldLocalTextSignals(answer);
    fullCats.push(fc);
    exitCats.push(ec);
    let changed = false;
    for (const c of LOCAL_TEXT_CATEGORIES) {
      if (triggered(fc, c) !== triggered(ec, c)) {
        changedByCategory[c]++;
        changed = true;
      }
    }
    if (LOCAL_TEXT_CATEGORIES.some((c) => triggered(ec, c) && !triggered(fc, c))) added++;
    if (LOCAL_TEXT_CATEGORIES.some((c) => triggered(fc, c) && !triggered(ec, c))) dropped++;
    changedRow.push(changed);
  }
  const examples = d.rows.idx.map((i) => d.rows.examples[i]);
  const anyScore = (cats: Record<LocalTextCategory, number>) => Math.max(...LOCAL_TEXT_CATEGORIES.map((c) => cats[c]));
  const pair = (rows: number[], label: (r: number) => 0 | 1 | undefined, score: (cats: Record<LocalTextCategory, number>) => number): AuprcPair | null => {
    const kept = rows.filter((r) => label(r) !== undefined);
    const y = kept.map((r) => label(r)!);
    const positives = y.filter(Boolean).length;
    if (positives < 20 || kept.length - positives < 20) return null;
    return {
      full: averagePrecision(
        kept.map((r) => score(fullCats[r])),
        y,
      ),
      exit: averagePrecision(
        kept.map((r) => score(exitCats[r])),
        y,
      ),
      positives,
    };
  };
  const all = Array.from({ length: n }, (_, r) => r);
  const byLanguage: ExitFigures['byLanguage'] = {};
  for (const lang of [...new Set(examples.map((e) => e.lang))].sort()) {
    const rows = all.filter((r) => examples[r].lang === lang);
    byLanguage[lang] = {
      rows: rows.length,
      embedded: rows.filter((r) => !d.cleared[r]).length,
      changed: rows.filter((r) => changedRow[r]).length,
      anyUnsafe: pair(rows, (r) => anyUnsafeLabel(examples[r]), anyScore),
    };
  }
  const changed = changedRow.filter(Boolean).length;
  return {
    rows: n,
    embeddedRows,
    leftAt,
    changed,
    changedShare: changed / Math.max(1, n),
    added,
    dropped,
    changedByCategory,
    anyUnsafe: pair(all, (r) => anyUnsafeLabel(examples[r]), anyScore) ?? { full: NaN, exit: NaN, positives: 0 },
    byCategory: Object.fromEntries(
      LOCAL_TEXT_CATEGORIES.map((c) => [
        c,
        pair(
          all,
          (r) => categoryLabel(examples[r], c),
          (cats) => cats[c],
        ),
      ]),
    ) as Record<LocalTextCategory, AuprcPair | null>,
    byLanguage,
    computeShare: fullWork > 0 ? work / fullWork : 1,
  };
}
