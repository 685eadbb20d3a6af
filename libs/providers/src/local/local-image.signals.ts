import type { SafetyScores } from '../image-safety/image-safety-scores';

/**
 * Signals of the local image models, scored side by side on every frame:
 *  - nsfwjs MobileNetV2Mid (five classes: drawing, hentai, neutral, porn, sexy): `sexual`
 *    is porn + hentai (explicit, photographed or drawn), `sexual_drawn` hentai,
 *    `sexual_suggestive` sexy, `drawing` and `neutral` informational;
 *  - OwenElliott/image-safety-classifier-s (three classes: NSFL, NSFW, SFW):
 *    `violence_graphic` is NSFL (gore, graphic violence, injury), `sexual_nsfw` NSFW.
 *
 * `sexual` and `sexual_nsfw` fold into the `sexual` category (the higher of the two
 * models wins), `violence_graphic` into `violence`. `sexual_suggestive` (swimwear,
 * lingerie) folds into no category: at the default policy's threshold it would block
 * beach photos. A policy thresholds it by name if it wants it. Hate or self-harm in an
 * image come from the text read in it (OCR), scored by the text model.
 */
export const LOCAL_IMAGE_SIGNALS = ['sexual', 'sexual_nsfw', 'sexual_drawn', 'sexual_suggestive', 'violence_graphic', 'drawing', 'neutral'] as const;
export type LocalImageSignal = (typeof LOCAL_IMAGE_SIGNALS)[number];

/** How the image-only signals fold into the policy categories (`sexual` folds as the text model's does). */
export const LOCAL_IMAGE_SIGNAL_FOLDING = { sexual: ['sexual', 'sexual_nsfw'], violence: ['violence_graphic'] } as const;

export interface NsfwClassScores {
  drawing: number;
  hentai: number;
  neutral: number;
  porn: number;
  sexy: number;
}

/** Both models' scores of one frame. */
export interface LocalImageScores {
  nsfw: NsfwClassScores;
  safety: SafetyScores;
}

export function imageSignalsOf({ nsfw: s, safety }: LocalImageScores): Record<LocalImageSignal, number> {
  const round = (v: number) => Math.round(Math.min(1, Math.max(0, v)) * 1e6) / 1e6;
  return {
    sexual: round(s.porn + s.hentai),
    sexual_nsfw: round(safety.nsfw),
    sexual_drawn: round(s.hentai),
    sexual_suggestive: round(s.sexy),
    violence_graphic: round(safety.nsfl),
    drawing: round(s.drawing),
    neutral: round(s.neutral),
  };
}

export const LOCAL_IMAGE_SIGNAL_DESCRIPTIONS: Record<LocalImageSignal, string> = {
  sexual: 'sexually explicit imagery, photographed or drawn (nsfwjs classes porn + hentai); folds into sexual',
  sexual_nsfw: 'sexual imagery (image safety model, class NSFW); folds into sexual',
  sexual_drawn: 'sexually explicit drawing or animation (nsfwjs class hentai); part of sexual',
  sexual_suggestive: 'suggestive but not explicit imagery: swimwear, lingerie (nsfwjs class sexy); folds into no category',
  violence_graphic: 'gore, graphic violence or injury (image safety model, class NSFL); folds into violence',
  drawing: 'a safe drawing or illustration (nsfwjs class drawing); informational',
  neutral: 'a safe photograph (nsfwjs class neutral); informational',
};
