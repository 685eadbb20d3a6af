import { ScoreMap } from '@cds/events';
import { SignalFolding } from '@cds/policy';
import { LOCAL_TEXT_SIGNAL_FOLDING } from '../local-text/local-text.signals';
import { ModerationProvider, ProviderScore, ScoreRequest } from '../port/provider.port';
import { mergeSignals } from '../port/provider-registry';
import { imageSignalsOf, NsfwClassScores } from './local-image.signals';
import { TextScorer } from './local-text.runtime';
import { NSFW_MODEL_NAME } from '../local-image/nsfw-pool';

export const LOCAL_PROVIDER = 'local';
/** The image model, as stored with each decision it scores (nsfwjs's bundled model). */
export const LOCAL_IMAGE_MODEL_ID = `nsfwjs:${NSFW_MODEL_NAME}`;

/** The image model as the local provider uses it: the worker pool, or anything with its shape. */
export interface ImageClassifier {
  readonly inputSize: number;
  classify(rgb: Uint8Array): Promise<NsfwClassScores>;
}

/** One map for both models: their signal names do not clash except `sexual`, which
 * means the same in both. */
export const LOCAL_SIGNAL_FOLDING: SignalFolding = Object.freeze({
  ...LOCAL_TEXT_SIGNAL_FOLDING,
  prompt_injection: ['prompt_injection'],
  jailbreak: ['jailbreak'],
});

/**
 * The built-in offline provider: the text model LOCAL_TEXT_MODEL picks (the embedding
 * model in a worker pool, or the hashed n-gram classifier), and the nsfwjs image model in
 * a worker pool. It costs nothing. Frames of one image (an animation) are scored
 * each and the worst wins, signal by signal.
 */
export class LocalProvider implements ModerationProvider {
  readonly name = LOCAL_PROVIDER;
  readonly modalities = ['text', 'image'] as const;
  readonly folding = LOCAL_SIGNAL_FOLDING;

  constructor(
    private readonly text: TextScorer,
    private readonly images: () => ImageClassifier,
  ) {}

  async score(request: ScoreRequest): Promise<ProviderScore> {
    if (request.modality === 'text') {
      const { signals, model } = await this.text.score(request.text, request.language, request.injection === true);
      return { signals, cost: 0, model };
    }
    const classifier = this.images();
    if (request.image.frameSize !== classifier.inputSize) {
      throw new Error(`frames are ${request.image.frameSize}px, the image model takes ${classifier.inputSize}px`);
    }
    const perFrame = await Promise.all(request.image.frames.map((f) => classifier.classify(f)));
    const signals: ScoreMap = mergeSignals(...perFrame.map(imageSignalsOf));
    return { signals, cost: 0, model: LOCAL_IMAGE_MODEL_ID };
  }
}
