/**
 * Group reweighting of one head's training rows (training only): a head fitted on rows
 * where one language or one source carries most of a class learns that group's
 * conventions, and ranks other groups' rows worse. `reweightByGroup` moves each class's
 * weight towards equal mass per group, by a power α (0: unchanged, 1: every group of the
 * class weighs the same), within a cap, keeping each class's total (so the positive boost
 * and λ keep their meaning).
 *
 *   --reweight hate=lang:0.5   (signal = group:α; group is `lang` or `source` (the dataset))
 *   --reweight hate=source:0.5:pos   (the positives only: the negatives, hard negatives
 *                                     among them, keep their weights)
 */
import { CorpusExample } from './corpus/example';
import { HeadData } from './embedding-logreg';

export type ReweightGroup = 'lang' | 'source';

/** which classes are moved towards equal mass per group (default both) */
export type ReweightClasses = 'both' | 'pos';

export interface Reweighting {
  signal: string;
  group: ReweightGroup;
  alpha: number;
  /** absent: both classes (the manifests written before the option read the same) */
  classes?: ReweightClasses;
}

/** no group's multiplier leaves [1/cap, cap]: a language with five positives would
 * otherwise take the weight of thousands */
export const REWEIGHT_CAP = 10;

export function parseReweighting(spec: string): Reweighting {
  const m = /^([a-z_]+)=(lang|source):([0-9.]+)(?::(pos))?$/.exec(spec);
  const alpha = m ? Number(m[3]) : NaN;
  if (!m || !(alpha >= 0 && alpha <= 1)) throw new Error(`--reweight must be <signal>=<lang|source>:<α in [0, 1]>[:pos], got "${spec}"`);
  return { signal: m[1], group: m[2] as ReweightGroup, alpha, ...(m[4] ? { classes: 'pos' as const } : {}) };
}

export function groupOf(ex: CorpusExample, group: ReweightGroup): string {
  return group === 'lang' ? ex.lang : ex.dataset;
}

/**
 * New row weights: row r of group g and class y gets c[r] · clamp((W_gy / W̄_y)^−α, 1/cap,
 * cap), W_gy the class's weight in the group, W̄_y its mean over the groups that have the
 * class; then each class is rescaled to its old total. `classes` 'pos': class 0 is left as it is.
 */
export function reweightByGroup(
  c: ArrayLike<number>,
  y: ArrayLike<number>,
  groups: readonly string[],
  alpha: number,
  cap = REWEIGHT_CAP,
  classes: ReweightClasses = 'both',
): Float64Array {
  if (groups.length !== c.length || y.length !== c.length) throw new Error('reweightByGroup: c, y and groups differ in length');
  const out = Float64Array.from(c);
  if (alpha === 0) return out;
  for (const cls of classes === 'pos' ? [1] : [0, 1]) {
    const mass = new Map<string, number>();
    let total = 0;
    for (let r = 0; r < c.length; r++) {
      if (y[r] !== cls) continue;
      mass.set(groups[r], (mass.get(groups[r]) ?? 0) + c[r]);
      total += c[r];
    }
    if (mass.size === 0 || total <= 0) continue;
    const mean = total / mass.size;
    const mult = new Map([...mass].map(([g, w]) => [g, Math.min(cap, Math.max(1 / cap, Math.pow(w / mean, -alpha)))]));
    let after = 0;
    for (let r = 0; r < c.length; r++) {
      if (y[r] !== cls) continue;
      out[r] = c[r] * mult.get(groups[r])!;
      after += out[r];
    }
    const scale = total / after;
    for (let r = 0; r < c.length; r++) if (y[r] === cls) out[r] *= scale;
  }
  return out;
}

/** `data` (from headData over `rowIdx`, rows of `examples`) with its weights reweighted. */
export function reweightHeadData(data: HeadData, examples: CorpusExample[], rowIdx: number[], rw: Reweighting): HeadData {
  const groups = Array.from(data.rows, (k) => groupOf(examples[rowIdx[k]], rw.group));
  return { ...data, c: reweightByGroup(data.c, data.y, groups, rw.alpha, REWEIGHT_CAP, rw.classes ?? 'both') };
}
