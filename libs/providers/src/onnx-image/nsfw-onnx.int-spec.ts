import { join } from 'node:path';
import { startWorkerFile } from '@cds/threads';

describe('a converted graph run by onnxruntime', () => {
  it('computes what the tfjs graph means: a 1×1 convolution, bias, ReLU6, on NCHW input', async () => {
    const worker = startWorkerFile(join(__dirname, 'tiny-model.worker.fixtures'));
    const result = await new Promise<{ dims?: number[]; data?: number[]; error?: string }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await worker.terminate();
    expect(result.error).toBeUndefined();
    expect(result.dims).toEqual([1, 2, 4, 4]);
    // filter (HWIO) rows r, g, b: [-1, -0.5], [0, 0.5], [1, 1.5]; bias [0.25, -0.5]
    expect(result.data![0]).toBeCloseTo(-1 + 0 + 3 + 0.25, 6);
    expect(result.data![16]).toBeCloseTo(-0.5 + 1 + 4.5 - 0.5, 6);
  });
});
