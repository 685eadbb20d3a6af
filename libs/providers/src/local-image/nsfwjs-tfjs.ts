/**
 * nsfwjs as its authors run it, on tfjs with the WebAssembly backend, in this thread: the
 * reference the ONNX conversion is checked against (nsfw-onnx.reference.int-spec.ts) and
 * the baseline of `npm run bench:image`. The service never loads it.
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { NSFW_INPUT_SIZE, NSFW_MODEL_NAME, nsfwModelBundles } from './nsfw-pool';
import { NsfwScores } from './nsfw-scores';

type Tf = typeof import('@tensorflow/tfjs');
type Nsfwjs = typeof import('nsfwjs');

const KEYS: Record<string, keyof NsfwScores> = { Drawing: 'drawing', Hentai: 'hentai', Neutral: 'neutral', Porn: 'porn', Sexy: 'sexy' };

export interface NsfwjsOnTfjs {
  /** One NSFW_INPUT_SIZE² RGB frame, as nsfwjs's classify scores it. */
  classify(rgb: Uint8Array): Promise<NsfwScores>;
  dispose(): void;
}

export async function loadNsfwjsOnTfjs(): Promise<NsfwjsOnTfjs> {
  // tfjs is resolved from nsfwjs's own folder: the wasm backend must register on the very
  // tfjs instance nsfwjs uses.
  const nsfwjsPath = require.resolve('nsfwjs');
  const from = { paths: [dirname(nsfwjsPath)] };
  const tf = require(require.resolve('@tensorflow/tfjs', from)) as Tf;
  require(require.resolve('@tensorflow/tfjs-backend-wasm', from));
  const nsfwjs = require(nsfwjsPath) as Nsfwjs;
  await tf.setBackend('wasm');
  await tf.ready();
  // nsfwjs 4.4's CommonJS build imports its bundled weights through __importStar, which
  // copies a 5.6 MB base64 string key by key (about 20 s of CPU); it first looks for the
  // bundles on the global object (its documented browserify route), so they are put there.
  const bundles = nsfwModelBundles();
  const global = globalThis as Record<string, unknown>;
  global.model = require(join(bundles, 'model.min.js'));
  for (const file of readdirSync(bundles)) {
    const shard = /^(group\d+-shard\d+of\d+)\.min\.js$/.exec(file);
    if (shard) global[shard[1].replace(/-/g, '_')] = require(join(bundles, file));
  }
  const info = console.info;
  console.info = () => undefined; // nsfwjs prints a banner on every load
  const model = await nsfwjs.load(NSFW_MODEL_NAME, { type: 'graph' }).finally(() => (console.info = info));
  return {
    async classify(rgb: Uint8Array): Promise<NsfwScores> {
      const input = tf.tensor3d(rgb, [NSFW_INPUT_SIZE, NSFW_INPUT_SIZE, 3], 'int32');
      try {
        const scores = {} as NsfwScores;
        for (const p of await model.classify(input, 5)) scores[KEYS[p.className]] = p.probability;
        return scores;
      } finally {
        input.dispose();
      }
    },
    dispose: () => model.dispose(),
  };
}
