import { existsSync } from 'fs';
import { isAbsolute, join } from 'path';
import { Script } from 'vm';
import { NSFW_WORKER_SOURCE, nsfwWorkerData } from './nsfw-worker.source';

describe('the image worker', () => {
  it('is plain JavaScript (it runs outside the TS toolchain)', () => {
    expect(() => new Script(NSFW_WORKER_SOURCE)).not.toThrow();
  });

  it('is given absolute paths to the packages it loads', () => {
    const data = nsfwWorkerData({ backend: 'wasm', modelName: 'MobileNetV2Mid', modelDir: 'mobilenet_v2_mid', inputSize: 224 });
    for (const path of [data.tfjsPath, data.wasmBackendPath, data.nsfwjsPath, data.modelBundlesPath, join(data.modelBundlesPath, 'model.min.js')]) {
      expect(isAbsolute(path)).toBe(true);
      expect(existsSync(path)).toBe(true);
    }
  });
});
