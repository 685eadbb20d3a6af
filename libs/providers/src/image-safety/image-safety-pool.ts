import { OnnxImagePool, OnnxImagePoolOptions } from '../onnx-image/onnx-image-pool';
import { ImageSafetyModelFiles, locateImageSafetyModel } from './image-safety-model-files';
import { SAFETY_CLASSES, SafetyScores, safetyScoresAt } from './image-safety-scores';

/** The side of the square RGB frame the model takes (its graph: `[batch, 3, 224, 224]`). */
export const SAFETY_INPUT_SIZE = 224;
/** Bytes of one frame: SAFETY_INPUT_SIZE² pixels × 3 channels (RGB, no alpha). */
export const SAFETY_INPUT_BYTES = SAFETY_INPUT_SIZE * SAFETY_INPUT_SIZE * 3;

export interface SafetyPoolOptions extends OnnxImagePoolOptions {
  /** models/image-safety by default (see defaultImageSafetyModelDir). */
  modelDir?: string;
}

/**
 * OwenElliott/image-safety-classifier-s (ONNX, three classes: NSFL, NSFW, SFW) in an
 * OnnxImagePool. Its graph normalises 0..255 pixels itself. Frames must be prepared as
 * the model's own package prepares them: `padFrame` in @cds/media (the picture fitted
 * inside the square, over a blurred stretched copy).
 */
export class SafetyPool extends OnnxImagePool<SafetyScores> {
  private constructor(
    o: SafetyPoolOptions,
    readonly model: ImageSafetyModelFiles,
  ) {
    super(
      {
        label: 'image safety',
        title: 'The image safety classifier',
        source: { kind: 'file', path: model.modelPath },
        size: SAFETY_INPUT_SIZE,
        pixelDivisor: 1,
        classes: SAFETY_CLASSES.length,
        scoresAt: safetyScoresAt,
      },
      o,
    );
  }

  /** Checks the model file (throws IMAGE_MODEL_MISSING, naming `npm run models:fetch`) and
   * starts the workers; the model loads in the background (see `ready`). */
  static start(o: SafetyPoolOptions): SafetyPool {
    const pool = new SafetyPool(o, locateImageSafetyModel(o.modelDir));
    pool.spawnAll();
    return pool;
  }
}
