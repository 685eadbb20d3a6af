/**
 * Named signals emitted by the built-in offline `local` text provider, and how they fold
 * into the policy categories (category score = max of its signals).
 *
 * `profanity` and `toxicity` are informational: they fold into no category, so swearing
 * on its own ("what a fucking day") never triggers harassment or hate. Policies can still
 * read them as extra signals.
 */
export const LOCAL_TEXT_SIGNALS = [
  'sexual',
  'sexual_minors',
  'hate',
  'hate_threat',
  'harassment',
  'insult',
  'violence',
  'violence_threat',
  'self_harm',
  'self_harm_intent',
  'profanity',
  'toxicity',
] as const;

export type LocalTextSignal = (typeof LOCAL_TEXT_SIGNALS)[number];

export const LOCAL_TEXT_CATEGORIES = ['sexual', 'hate', 'harassment', 'violence', 'self-harm'] as const;

export type LocalTextCategory = (typeof LOCAL_TEXT_CATEGORIES)[number];

export const LOCAL_TEXT_SIGNAL_FOLDING: Record<LocalTextCategory, LocalTextSignal[]> = {
  sexual: ['sexual', 'sexual_minors'],
  hate: ['hate', 'hate_threat'],
  harassment: ['harassment', 'insult'],
  violence: ['violence', 'violence_threat'],
  'self-harm': ['self_harm', 'self_harm_intent'],
};

/** What each signal means; kept next to the list so docs and code cannot drift apart. */
export const LOCAL_TEXT_SIGNAL_DESCRIPTIONS: Record<LocalTextSignal, string> = {
  sexual: 'sexually explicit content or requests for it',
  sexual_minors: 'sexual content involving minors (child sexual abuse material requests)',
  hate: 'attacks, dehumanisation or slurs against a protected group',
  hate_threat: 'threats or calls for violence against a protected group',
  harassment: 'abuse, insults or bullying aimed at a person',
  insult: 'insulting or demeaning language',
  violence: 'violent content, incitement or requests to harm others',
  violence_threat: 'a threat of violence',
  self_harm: 'suicide or self-harm content, including requests for methods',
  self_harm_intent: 'first-person suicidal ideation or intent to self-harm',
  profanity: 'swearing and obscene words (folds into no category)',
  toxicity: 'generally rude or offensive language (folds into no category)',
};

/** ISO 639-1 codes the spec lists as supported. Other codes are still scored, without a lexicon. */
export const SUPPORTED_LANGUAGES = ['en', 'es', 'fr', 'de', 'pt', 'it', 'ru', 'tr', 'ar', 'hi', 'id', 'ja', 'ko', 'pl', 'nl', 'sv', 'cs'] as const;

export type SupportedLanguage = (typeof SUPPORTED_LANGUAGES)[number];

export function isSupportedLanguage(value: unknown): value is SupportedLanguage {
  return typeof value === 'string' && (SUPPORTED_LANGUAGES as readonly string[]).includes(value);
}

/** Folds signals into category scores (max of each category's signals; missing signals count as 0). */
export function foldLocalTextSignals(signals: Record<string, number>): Record<LocalTextCategory, number> {
  const out = {} as Record<LocalTextCategory, number>;
  for (const category of LOCAL_TEXT_CATEGORIES) {
    let best = 0;
    for (const name of LOCAL_TEXT_SIGNAL_FOLDING[category]) {
      const v = signals[name];
      if (typeof v === 'number' && v > best) best = v;
    }
    out[category] = best;
  }
  return out;
}
