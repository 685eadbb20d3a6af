import { nsfwOnnxModel, tfjsConstants } from './nsfw-onnx';
import { b64, tinyModel } from './nsfw-onnx.fixtures';

describe('tfjsConstants', () => {
  it('dequantizes uint8 constants as q × scale + min and reads float32 ones as they are', () => {
    const { model, shards } = tinyModel();
    const c = tfjsConstants(model, shards);
    expect(Array.from(c.get('w')!.data)).toEqual([-1, -0.5, 0, 0.5, 1, 1.5]);
    expect(Array.from(c.get('b')!.data)).toEqual([0.25, -0.5]);
  });

  it('refuses shards that end early or hold more than the manifest describes', () => {
    const { model, shards } = tinyModel();
    expect(() => tfjsConstants(model, [shards[0].subarray(0, 9)])).toThrow(/the shards end inside constant b/);
    expect(() => tfjsConstants(model, [Uint8Array.from([...shards[0], 0])])).toThrow(/hold 15 bytes, the manifest describes 14/);
  });
});

describe('nsfwOnnxModel', () => {
  it('writes an ONNX ModelProto (IR version 8, opset 13) naming its input and output', () => {
    const { model, shards } = tinyModel();
    const bytes = nsfwOnnxModel(model, shards);
    expect(Array.from(bytes.subarray(0, 2))).toEqual([0x08, 8]); // field 1 (ir_version), varint 8
    const text = Buffer.from(bytes).toString('latin1');
    for (const name of ['pixels', 'probabilities', 'Conv', 'Clip', 'SAME_UPPER', 'kernel_shape']) expect(text).toContain(name);
    expect(Array.from(bytes.subarray(-6))).toEqual([0x42, 4, 0x0a, 0, 0x10, 13]); // field 8 (opset_import): domain "", version 13
  });

  it('refuses an operation it does not map, naming it', () => {
    const { model, shards } = tinyModel('Conv3D');
    expect(() => nsfwOnnxModel(model, shards)).toThrow('operation Conv3D (conv) is not converted');
  });

  it('refuses a graph whose input is not [batch, size, size, 3]', () => {
    const { model, shards } = tinyModel();
    (model.modelTopology.node[0].attr as never as { shape: { shape: { dim: { size: string }[] } } }).shape.shape.dim[3].size = '1';
    expect(() => nsfwOnnxModel(model, shards)).toThrow(/not \[batch, size, size, 3\]/);
  });

  it('refuses a fused activation it does not map', () => {
    const { model, shards } = tinyModel();
    model.modelTopology.node[3].attr!.fused_ops = { list: { s: [b64('BiasAdd'), b64('Elu')] } };
    expect(() => nsfwOnnxModel(model, shards)).toThrow('conv: fused Elu after BiasAdd is not converted');
  });
});
