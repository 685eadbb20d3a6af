import { MAX_IMAGE_BATCH, imageBatchSize } from './onnx-image-pool.rules';

describe('imageBatchSize', () => {
  it('gives each idle worker an even share, rounded up, at most the largest batch', () => {
    expect(imageBatchSize(1, 2)).toBe(1);
    expect(imageBatchSize(8, 2)).toBe(4);
    expect(imageBatchSize(7, 2)).toBe(4);
    expect(imageBatchSize(3, 1)).toBe(3);
    expect(imageBatchSize(40, 1)).toBe(MAX_IMAGE_BATCH);
  });

  it('takes nothing from an empty queue and at least one otherwise', () => {
    expect(imageBatchSize(0, 2)).toBe(0);
    expect(imageBatchSize(1, 0)).toBe(1);
  });
});
