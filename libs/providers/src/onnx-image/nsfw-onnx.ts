/**
 * nsfwjs's model as an ONNX graph, so onnxruntime runs it (as it runs the image safety
 * model) instead of tfjs on WebAssembly: the same weights, the same operations, a few
 * times faster on a CPU. Built in memory from the package's own files when a worker
 * starts: nothing is downloaded or stored, and an nsfwjs upgrade brings its weights along
 * (a graph with an operation not mapped here is refused, by name).
 *
 * What is read (tfjs's documented graph-model format): `modelTopology`, a TensorFlow
 * GraphDef in JSON (nodes with `op`, `input`, `attr`; NHWC layout), and `weightsManifest`,
 * the constants' names, shapes and quantization, their bytes in the shards one after
 * another. A uint8 constant is `q × scale + min`, as tfjs dequantizes it.
 *
 * The ONNX graph is NCHW: its input is `[batch, 3, size, size]`, the pixels divided by 255
 * (what nsfwjs's classify does before the graph); filters are turned from HWIO to OIHW,
 * depthwise filters become grouped convolutions, TensorFlow's SAME padding is ONNX's
 * SAME_UPPER (the extra row or column at the end). The output is the five class
 * probabilities in nsfwjs's class order.
 */
import { encodeOnnxModel, OnnxAttribute, OnnxInitializer, OnnxNode } from './onnx-writer';

/** One node of the GraphDef as tfjs's converter writes it to JSON. */
export interface TfjsNode {
  name: string;
  op: string;
  input?: string[];
  attr?: Record<string, TfjsAttr>;
}

export interface TfjsAttr {
  s?: string;
  i?: string;
  f?: number;
  b?: boolean;
  list?: { i?: string[]; s?: string[] };
}

export interface TfjsWeightSpec {
  name: string;
  shape: number[];
  dtype: string;
  quantization?: { dtype: string; min?: number; scale?: number };
}

export interface TfjsGraphModel {
  modelTopology: { node: TfjsNode[] };
  weightsManifest: { paths: string[]; weights: TfjsWeightSpec[] }[];
}

/** The ONNX graph's input and output names. */
export const NSFW_ONNX_INPUT = 'pixels';
export const NSFW_ONNX_OUTPUT = 'probabilities';

const OPSET = 13;

/** Float32 constants by name, from the manifest and the shards' bytes (in manifest order). */
export function tfjsConstants(model: TfjsGraphModel, shards: readonly Uint8Array[]): Map<string, { shape: number[]; data: Float32Array }> {
  const out = new Map<string, { shape: number[]; data: Float32Array }>();
  let shard = 0;
  for (const group of model.weightsManifest) {
    const bytes = concat(shards.slice(shard, shard + group.paths.length));
    shard += group.paths.length;
    let at = 0;
    for (const w of group.weights) {
      if (w.dtype !== 'float32') throw new Error(`constant ${w.name} is ${w.dtype}; only float32 constants are converted`);
      const count = w.shape.reduce((a, b) => a * b, 1);
      const data = new Float32Array(count);
      const q = w.quantization;
      if (q?.dtype === 'uint8' && q.scale !== undefined && q.min !== undefined) {
        if (at + count > bytes.length) throw new Error(`the shards end inside constant ${w.name}`);
        for (let i = 0; i < count; i++) data[i] = bytes[at + i] * q.scale + q.min;
        at += count;
      } else if (!q) {
        if (at + count * 4 > bytes.length) throw new Error(`the shards end inside constant ${w.name}`);
        data.set(new Float32Array(bytes.slice(at, at + count * 4).buffer));
        at += count * 4;
      } else {
        throw new Error(`constant ${w.name} is quantized as ${q.dtype}; only uint8 (with min and scale) is converted`);
      }
      out.set(w.name, { shape: w.shape, data });
    }
    if (at !== bytes.length) throw new Error(`the shards hold ${bytes.length} bytes, the manifest describes ${at}`);
  }
  return out;
}

/** The ONNX model's bytes (for InferenceSession.create) of a tfjs MobileNet-style graph. */
export function nsfwOnnxModel(model: TfjsGraphModel, shards: readonly Uint8Array[]): Uint8Array {
  const constants = tfjsConstants(model, shards);
  const nodes: OnnxNode[] = [];
  const initializers: OnnxInitializer[] = [];
  const addConstant = (name: string, dims: number[], data: Float32Array) => {
    initializers.push({ name, dims, data });
    return name;
  };
  const constant = (name: string) => {
    const c = constants.get(name);
    if (!c) throw new Error(`no constant named ${name}`);
    return c;
  };
  let input: TfjsNode | undefined;
  let size = 0;
  let output = '';

  for (const n of model.modelTopology.node) {
    const ins = (n.input ?? []).filter((i) => !i.startsWith('^')).map(tensorName);
    switch (n.op) {
      case 'Const':
        break;
      case 'Placeholder': {
        if (input) throw new Error('the graph has more than one input');
        input = n;
        const dims = (n.attr?.shape as { shape?: { dim?: { size: string }[] } } | undefined)?.shape?.dim?.map((d) => Number(d.size)) ?? [];
        if (dims.length !== 4 || dims[1] !== dims[2] || dims[3] !== 3) throw new Error(`the input is [${dims.join(', ')}], not [batch, size, size, 3]`);
        size = dims[1];
        break;
      }
      case 'Mul':
      case 'Sub':
      case 'AddV2': {
        const operands = ins.map((i) => (constants.has(i) ? scalarConstant(i, constant(i), addConstant) : valueName(i, input)));
        nodes.push({ op: n.op === 'AddV2' ? 'Add' : n.op, inputs: operands, outputs: [n.name], name: n.name });
        break;
      }
      case '_FusedConv2D':
      case 'FusedDepthwiseConv2dNative': {
        const [x, filter, bias] = ins;
        const depthwise = n.op === 'FusedDepthwiseConv2dNative';
        const f = constant(filter);
        const b = constant(bias);
        const [kh, kw, cin, cout] = f.shape;
        const weight = depthwise ? depthwiseToOihw(f.data, kh, kw, cin, cout) : hwioToOihw(f.data, kh, kw, cin, cout);
        const wDims = depthwise ? [cin * cout, 1, kh, kw] : [cout, cin, kh, kw];
        const fused = fusedOps(n);
        if (fused[0] !== 'BiasAdd') throw new Error(`${n.name}: fused ${fused.join(', ')} without BiasAdd first is not converted`);
        const attributes: Record<string, OnnxAttribute> = {
          strides: { kind: 'ints', value: spatial(listOf(n, 'strides')) },
          dilations: { kind: 'ints', value: spatial(listOf(n, 'dilations', ['1', '1', '1', '1'])) },
          auto_pad: { kind: 'string', value: padding(n) },
          kernel_shape: { kind: 'ints', value: [kh, kw] },
        };
        if (depthwise) attributes.group = { kind: 'int', value: cin };
        requireNhwc(n);
        const conv = fused.length > 1 ? `${n.name}/conv` : n.name;
        nodes.push({
          op: 'Conv',
          inputs: [valueName(x, input), addConstant(filter, wDims, weight), addConstant(bias, b.shape, b.data)],
          outputs: [conv],
          name: conv,
          attributes,
        });
        if (fused.length > 1) nodes.push(activation(n, fused.slice(1), conv, addConstant));
        break;
      }
      case 'AvgPool': {
        requireNhwc(n);
        if (padding(n) !== 'VALID') throw new Error(`${n.name}: average pooling with SAME padding is not converted`);
        nodes.push({
          op: 'AveragePool',
          inputs: [valueName(ins[0], input)],
          outputs: [n.name],
          name: n.name,
          attributes: { kernel_shape: { kind: 'ints', value: spatial(listOf(n, 'ksize')) }, strides: { kind: 'ints', value: spatial(listOf(n, 'strides')) } },
        });
        break;
      }
      case 'Squeeze': {
        // NHWC's spatial axes (1, 2) of a pooled [batch, 1, 1, C]: in NCHW that is
        // [batch, C, 1, 1] flattened after the batch (Flatten needs no int64 axes input).
        const axes = listOf(n, 'squeeze_dims').map((a) => (a < 0 ? a + 4 : a));
        if (axes.sort().join() !== '1,2') throw new Error(`${n.name}: only squeezing the spatial axes is converted`);
        nodes.push({ op: 'Flatten', inputs: [valueName(ins[0], input)], outputs: [n.name], name: n.name, attributes: { axis: { kind: 'int', value: 1 } } });
        break;
      }
      case '_FusedMatMul': {
        if (n.attr?.transpose_a?.b || n.attr?.transpose_b?.b) throw new Error(`${n.name}: a transposed matmul is not converted`);
        if (fusedOps(n).join() !== 'BiasAdd') throw new Error(`${n.name}: fused ${fusedOps(n).join(', ')} is not converted`);
        const [x, weights, bias] = ins;
        const w = constant(weights);
        const b = constant(bias);
        nodes.push({
          op: 'Gemm',
          inputs: [valueName(x, input), addConstant(weights, w.shape, w.data), addConstant(bias, b.shape, b.data)],
          outputs: [n.name],
          name: n.name,
        });
        break;
      }
      case 'Softmax':
        nodes.push({ op: 'Softmax', inputs: [valueName(ins[0], input)], outputs: [n.name], name: n.name, attributes: { axis: { kind: 'int', value: -1 } } });
        break;
      case 'Identity':
        if (output) throw new Error('the graph has more than one output');
        nodes.push({ op: 'Identity', inputs: [valueName(ins[0], input)], outputs: [NSFW_ONNX_OUTPUT], name: n.name });
        output = n.name;
        break;
      default:
        throw new Error(`operation ${n.op} (${n.name}) is not converted`);
    }
  }
  if (!input || !output) throw new Error('the graph has no input or no output');
  return encodeOnnxModel({
    opset: OPSET,
    producer: 'cds nsfw-onnx',
    graphName: 'nsfwjs',
    nodes,
    initializers,
    inputs: [{ name: NSFW_ONNX_INPUT, dims: ['batch', 3, size, size] }],
    outputs: [{ name: NSFW_ONNX_OUTPUT, dims: ['batch', 5] }],
  });
}

/** "node:0" and "node" name the same tensor; ops here have one output. */
function tensorName(input: string): string {
  const m = /^(.*):(\d+)$/.exec(input);
  if (!m) return input;
  if (m[2] !== '0') throw new Error(`input ${input}: only a node's first output is converted`);
  return m[1];
}

function valueName(name: string, input: TfjsNode | undefined): string {
  return input && name === input.name ? NSFW_ONNX_INPUT : name;
}

function scalarConstant(name: string, c: { shape: number[]; data: Float32Array }, add: (n: string, d: number[], v: Float32Array) => string): string {
  if (c.data.length !== 1) throw new Error(`constant ${name} of shape [${c.shape.join(', ')}] in an elementwise operation: only scalars are converted`);
  return add(name, [], c.data);
}

function decode(s: string): string {
  return Buffer.from(s, 'base64').toString('utf8');
}

function fusedOps(n: TfjsNode): string[] {
  return (n.attr?.fused_ops?.list?.s ?? []).map(decode);
}

function listOf(n: TfjsNode, key: string, fallback?: string[]): number[] {
  const list = n.attr?.[key]?.list?.i ?? fallback;
  if (!list) throw new Error(`${n.name} has no ${key}`);
  return list.map(Number);
}

/** [1, h, w, 1] in NHWC → [h, w]. */
function spatial(nhwc: number[]): number[] {
  if (nhwc.length !== 4 || nhwc[0] !== 1 || nhwc[3] !== 1) throw new Error(`[${nhwc.join(', ')}] is not an NHWC spatial list`);
  return [nhwc[1], nhwc[2]];
}

function padding(n: TfjsNode): 'SAME_UPPER' | 'VALID' {
  const p = n.attr?.padding?.s ? decode(n.attr.padding.s) : '';
  if (p === 'SAME') return 'SAME_UPPER';
  if (p === 'VALID') return 'VALID';
  throw new Error(`${n.name}: padding "${p}" is not converted`);
}

function requireNhwc(n: TfjsNode): void {
  const format = n.attr?.data_format?.s ? decode(n.attr.data_format.s) : 'NHWC';
  if (format !== 'NHWC') throw new Error(`${n.name}: data format ${format} is not converted`);
}

function activation(n: TfjsNode, ops: string[], x: string, add: (name: string, d: number[], v: Float32Array) => string): OnnxNode {
  if (ops.length === 1 && ops[0] === 'Relu') return { op: 'Relu', inputs: [x], outputs: [n.name], name: n.name };
  if (ops.length === 1 && ops[0] === 'Relu6') {
    const lo = add(`${n.name}/min`, [], Float32Array.of(0));
    const hi = add(`${n.name}/max`, [], Float32Array.of(6));
    return { op: 'Clip', inputs: [x, lo, hi], outputs: [n.name], name: n.name };
  }
  throw new Error(`${n.name}: fused ${ops.join(', ')} after BiasAdd is not converted`);
}

/** HWIO (TensorFlow's Conv2D filter) → OIHW (ONNX's). */
function hwioToOihw(w: Float32Array, kh: number, kw: number, cin: number, cout: number): Float32Array {
  const out = new Float32Array(w.length);
  for (let h = 0; h < kh; h++)
    for (let x = 0; x < kw; x++)
      for (let i = 0; i < cin; i++) for (let o = 0; o < cout; o++) out[((o * cin + i) * kh + h) * kw + x] = w[((h * kw + x) * cin + i) * cout + o];
  return out;
}

/** [h, w, channels, multiplier] (a depthwise filter) → [channels × multiplier, 1, h, w] (ONNX's grouped Conv). */
function depthwiseToOihw(w: Float32Array, kh: number, kw: number, channels: number, multiplier: number): Float32Array {
  const out = new Float32Array(w.length);
  for (let h = 0; h < kh; h++)
    for (let x = 0; x < kw; x++)
      for (let c = 0; c < channels; c++)
        for (let m = 0; m < multiplier; m++) out[((c * multiplier + m) * kh + h) * kw + x] = w[((h * kw + x) * channels + c) * multiplier + m];
  return out;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((a, p) => a + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
