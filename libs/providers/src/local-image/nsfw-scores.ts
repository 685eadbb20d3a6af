/** The model's five exclusive classes, as probabilities summing to 1. */
export interface NsfwScores {
  drawing: number;
  hentai: number;
  neutral: number;
  porn: number;
  sexy: number;
}

/** What `NSFWJS.classify(img, 5)` returns. */
export interface NsfwPrediction {
  className: string;
  probability: number;
}

const CLASS_KEYS: Record<string, keyof NsfwScores> = {
  Drawing: 'drawing',
  Hentai: 'hentai',
  Neutral: 'neutral',
  Porn: 'porn',
  Sexy: 'sexy',
};

/** The model's top-5 list as a record; throws if a class is missing or unknown, which
 * would mean a different model than the one this code was written for. */
export function nsfwScoresOf(predictions: readonly NsfwPrediction[]): NsfwScores {
  const scores: Partial<NsfwScores> = {};
  for (const p of predictions) {
    const key = CLASS_KEYS[p.className];
    if (!key) throw new Error(`unexpected nsfwjs class "${p.className}"`);
    if (!Number.isFinite(p.probability)) throw new Error(`nsfwjs gave a non-finite probability for ${p.className}`);
    scores[key] = p.probability;
  }
  const missing = Object.values(CLASS_KEYS).filter((k) => scores[k] === undefined);
  if (missing.length > 0) throw new Error(`nsfwjs gave no probability for ${missing.join(', ')}`);
  const { drawing, hentai, neutral, porn, sexy } = scores as NsfwScores;
  return { drawing, hentai, neutral, porn, sexy };
}
