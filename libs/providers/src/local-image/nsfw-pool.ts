import { dirname, join } from 'path';
import { OnnxImagePool, OnnxImagePoolOptions } from '../onnx-image/onnx-image-pool';
import { NSFW_CLASS_COUNT, NsfwScores, nsfwScoresAt } from './nsfw-scores';

/** The nsfwjs model the pool loads: MobileNetV2 at mid resolution, bundled in the package
 * (no download). Its graph's input is `[-1, 224, 224, 3]` (nsfwjs's IMAGE_SIZE too). */
export const NSFW_MODEL_NAME = 'MobileNetV2Mid';
/** Its bundles' folder in the nsfwjs package (dist/models/…). */
export const NSFW_MODEL_DIR = 'mobilenet_v2_mid';

/** The side of the square RGB frame the model takes. */
export const NSFW_INPUT_SIZE = 224;

/** Bytes of one frame: NSFW_INPUT_SIZE² pixels × 3 channels (RGB, no alpha). */
export const NSFW_INPUT_BYTES = NSFW_INPUT_SIZE * NSFW_INPUT_SIZE * 3;

/** The folder of the model's bundled JSON and weight shards inside the installed nsfwjs. */
export function nsfwModelBundles(modelDir = NSFW_MODEL_DIR): string {
  return join(dirname(require.resolve('nsfwjs')), '..', 'models', modelDir);
}

/**
 * nsfwjs's MobileNetV2Mid (five classes) in an OnnxImagePool: its weights, from the
 * installed nsfwjs package, converted to an ONNX graph when each worker starts
 * (onnx-image/nsfw-onnx.ts) and run by onnxruntime, about 4× faster than tfjs on
 * WebAssembly with the same scores (nsfw-onnx.reference.int-spec.ts). Frames are the
 * picture stretched to the square; the worker divides the bytes by 255, as nsfwjs's
 * classify does before its graph.
 */
export class NsfwPool extends OnnxImagePool<NsfwScores> {
  private constructor(o: OnnxImagePoolOptions) {
    super(
      {
        label: 'image',
        title: 'The image classifier',
        source: { kind: 'nsfwjs', bundlesPath: nsfwModelBundles() },
        size: NSFW_INPUT_SIZE,
        pixelDivisor: 255,
        classes: NSFW_CLASS_COUNT,
        scoresAt: nsfwScoresAt,
      },
      o,
    );
  }

  /** Starts the workers; the model is converted and loaded in the background (see `ready`). */
  static start(o: OnnxImagePoolOptions): NsfwPool {
    const pool = new NsfwPool(o);
    pool.spawnAll();
    return pool;
  }
}
