import 'reflect-metadata';
import { uploadOptions } from './video-upload-options';

describe('uploadOptions (the multipart fields of POST /v1/video/upload)', () => {
  it('reads numbers, booleans and JSON from text fields', () => {
    const o = uploadOptions({ policyId: 'p', maxDurationSeconds: '60', frameInterval: '1.5', stopOnBlock: 'true', metadata: '{"userId":"u"}' });
    expect(o).toMatchObject({
      policyId: 'p',
      maxDurationSeconds: 60,
      metadata: { userId: 'u' },
      extractionStrategy: { frameInterval: 1.5, stopOnBlock: true },
    });
    expect(uploadOptions({ policyId: 'p', extractionStrategy: '{"mode":"scenes","maxFrames":5}' }).extractionStrategy).toMatchObject({
      mode: 'scenes',
      maxFrames: 5,
    });
  });

  it('refuses what the JSON endpoint refuses, naming the field', () => {
    const bad = (fields: Record<string, string>, field: string) =>
      expect(() => uploadOptions(fields)).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR', details: expect.stringContaining(field) }));
    bad({}, 'policyId');
    bad({ policyId: 'p', maxDurationSeconds: 'soon' }, 'maxDurationSeconds');
    bad({ policyId: 'p', stopOnBlock: 'maybe' }, 'stopOnBlock');
    bad({ policyId: 'p', mode: 'random' }, 'mode');
    bad({ policyId: 'p', metadata: '{not json' }, 'metadata');
    bad({ policyId: 'p', frameInterval: '0' }, 'frameInterval');
  });
});
