import { TfjsGraphModel } from './nsfw-onnx';

export const b64 = (s: string) => Buffer.from(s).toString('base64');

/** input [-1, 4, 4, 3] → 1×1 conv (BiasAdd, Relu6) → output; weights uint8-quantized. */
export function tinyModel(op = '_FusedConv2D'): { model: TfjsGraphModel; shards: Uint8Array[] } {
  const model: TfjsGraphModel = {
    modelTopology: {
      node: [
        { name: 'input', op: 'Placeholder', attr: { shape: { shape: { dim: [{ size: '-1' }, { size: '4' }, { size: '4' }, { size: '3' }] } } } as never },
        { name: 'w', op: 'Const' },
        { name: 'b', op: 'Const' },
        {
          name: 'conv',
          op,
          input: ['input', 'w', 'b'],
          attr: {
            strides: { list: { i: ['1', '1', '1', '1'] } },
            padding: { s: b64('SAME') },
            data_format: { s: b64('NHWC') },
            fused_ops: { list: { s: [b64('BiasAdd'), b64('Relu6')] } },
          },
        },
        { name: 'out', op: 'Identity', input: ['conv:0'] },
      ],
    },
    weightsManifest: [
      {
        paths: ['shard1'],
        weights: [
          { name: 'w', shape: [1, 1, 3, 2], dtype: 'float32', quantization: { dtype: 'uint8', min: -1, scale: 0.5 } },
          { name: 'b', shape: [2], dtype: 'float32' },
        ],
      },
    ],
  };
  const bias = new Uint8Array(Float32Array.of(0.25, -0.5).buffer);
  return { model, shards: [Uint8Array.from([0, 1, 2, 3, 4, 5, ...bias])] };
}
