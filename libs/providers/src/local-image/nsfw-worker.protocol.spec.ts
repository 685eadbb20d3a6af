import { existsSync } from 'fs';
import { isAbsolute, join } from 'path';
import { nsfwWorkerData } from './nsfw-worker.protocol';

describe('the image worker', () => {
  it('is given absolute paths to the packages it loads', () => {
    const data = nsfwWorkerData({ backend: 'wasm', modelName: 'MobileNetV2Mid', modelDir: 'mobilenet_v2_mid', inputSize: 224 });
    for (const path of [data.tfjsPath, data.wasmBackendPath, data.nsfwjsPath, data.modelBundlesPath, join(data.modelBundlesPath, 'model.min.js')]) {
      expect(isAbsolute(path)).toBe(true);
      expect(existsSync(path)).toBe(true);
    }
  });
});
