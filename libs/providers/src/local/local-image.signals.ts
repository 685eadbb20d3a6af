/**
 * Signals of the local image model (nsfwjs MobileNetV2Mid, five classes: drawing, hentai,
 * neutral, porn, sexy). The classes are exclusive probabilities, so "explicit, photo or
 * drawn" is porn + hentai.
 *
 * Only `sexual` folds into the `sexual` category. `sexual_suggestive` (swimwear,
 * lingerie: the model's "sexy" class) folds into no category: at the default policy's
 * threshold it would block beach photos. A policy that wants it thresholds it by name.
 * The model scores nothing else from pixels: violence, hate or self-harm in an image come
 * from the text read in it (OCR), scored by the text model.
 */
export const LOCAL_IMAGE_SIGNALS = ['sexual', 'sexual_drawn', 'sexual_suggestive', 'drawing', 'neutral'] as const;
export type LocalImageSignal = (typeof LOCAL_IMAGE_SIGNALS)[number];

export interface NsfwClassScores {
  drawing: number;
  hentai: number;
  neutral: number;
  porn: number;
  sexy: number;
}

export function imageSignalsOf(s: NsfwClassScores): Record<LocalImageSignal, number> {
  const round = (v: number) => Math.round(Math.min(1, Math.max(0, v)) * 1e6) / 1e6;
  return {
    sexual: round(s.porn + s.hentai),
    sexual_drawn: round(s.hentai),
    sexual_suggestive: round(s.sexy),
    drawing: round(s.drawing),
    neutral: round(s.neutral),
  };
}

export const LOCAL_IMAGE_SIGNAL_DESCRIPTIONS: Record<LocalImageSignal, string> = {
  sexual: 'sexually explicit imagery, photographed or drawn (model classes porn + hentai); folds into sexual',
  sexual_drawn: 'sexually explicit drawing or animation (class hentai); part of sexual',
  sexual_suggestive: 'suggestive but not explicit imagery: swimwear, lingerie (class sexy); folds into no category',
  drawing: 'a safe drawing or illustration (class drawing); informational',
  neutral: 'a safe photograph (class neutral); informational',
};
