/** OpenAI moderation answers as the API documents them, for the contract and e2e tests. */
export const CATEGORIES = [
  'sexual',
  'sexual/minors',
  'harassment',
  'harassment/threatening',
  'hate',
  'hate/threatening',
  'illicit',
  'illicit/violent',
  'self-harm',
  'self-harm/intent',
  'self-harm/instructions',
  'violence',
  'violence/graphic',
];
export const IMAGE_CATEGORIES = new Set(['sexual', 'self-harm', 'self-harm/intent', 'self-harm/instructions', 'violence', 'violence/graphic']);

/** A moderation answer as documented (omni-moderation-latest): every category flagged or
 * not, scored, and the input types each score applies to. */
export function moderation(scores: Record<string, number>, modality: 'text' | 'image') {
  const applied = Object.fromEntries(CATEGORIES.map((c) => [c, modality === 'text' ? ['text'] : IMAGE_CATEGORIES.has(c) ? ['image'] : []]));
  return {
    id: 'modr-970d409ef3bef3b70c73d8232df86e7d',
    model: 'omni-moderation-latest',
    results: [
      {
        flagged: Object.values(scores).some((s) => s > 0.5),
        categories: Object.fromEntries(CATEGORIES.map((c) => [c, (scores[c] ?? 0) > 0.5])),
        category_scores: Object.fromEntries(CATEGORIES.map((c) => [c, scores[c] ?? 1.2e-6])),
        category_applied_input_types: applied,
      },
    ],
  };
}
