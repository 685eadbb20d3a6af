/**
 * The few ONNX messages a converted graph needs, written as protobuf bytes (onnx.proto3's
 * field numbers; ONNX is protobuf, and onnxruntime reads a model from a buffer). Only what
 * nsfw-onnx.ts builds: nodes with int, ints, float and string attributes; float32
 * initializers; float32 inputs and outputs with fixed or named dimensions.
 */

export type OnnxAttribute =
  { kind: 'int'; value: number } | { kind: 'ints'; value: readonly number[] } | { kind: 'float'; value: number } | { kind: 'string'; value: string };

export interface OnnxNode {
  op: string;
  inputs: readonly string[];
  outputs: readonly string[];
  name?: string;
  attributes?: Readonly<Record<string, OnnxAttribute>>;
}

export interface OnnxInitializer {
  name: string;
  dims: readonly number[];
  /** Float32 values, dims' product of them. */
  data: Float32Array;
}

export interface OnnxValue {
  name: string;
  /** A number is a fixed size; a string names a size given at run time (the batch). */
  dims: readonly (number | string)[];
}

export interface OnnxModel {
  opset: number;
  producer: string;
  graphName: string;
  nodes: readonly OnnxNode[];
  initializers: readonly OnnxInitializer[];
  inputs: readonly OnnxValue[];
  outputs: readonly OnnxValue[];
}

/** IR version 8 (ONNX 1.10): read by every onnxruntime this project installs. */
const IR_VERSION = 8;
const FLOAT = 1;
const ATTRIBUTE_TYPES = { float: 1, int: 2, string: 3, ints: 7 } as const;

/** Protobuf wire writer: varints, 32-bit floats and length-delimited fields. */
class Writer {
  private readonly parts: Uint8Array[] = [];
  private length = 0;

  varint(field: number, value: number): this {
    return this.key(field, 0).rawVarint(value);
  }

  float(field: number, value: number): this {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setFloat32(0, value, true);
    return this.key(field, 5).push(b);
  }

  string(field: number, value: string): this {
    return this.bytes(field, new TextEncoder().encode(value));
  }

  bytes(field: number, value: Uint8Array): this {
    return this.key(field, 2).rawVarint(value.length).push(value);
  }

  message(field: number, write: (w: Writer) => void): this {
    const inner = new Writer();
    write(inner);
    return this.bytes(field, inner.finish());
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.length);
    let at = 0;
    for (const p of this.parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }

  private key(field: number, wire: number): this {
    return this.rawVarint(field * 8 + wire);
  }

  /** Non-negative integers below 2^53, and negative ones as protobuf's 10-byte two's complement. */
  private rawVarint(value: number): this {
    if (!Number.isSafeInteger(value)) throw new RangeError(`${value} is not an integer protobuf can carry here`);
    let v = BigInt.asUintN(64, BigInt(value));
    const bytes: number[] = [];
    do {
      const low = Number(v & 0x7fn);
      v >>= 7n;
      bytes.push(v > 0n ? low | 0x80 : low);
    } while (v > 0n);
    return this.push(Uint8Array.from(bytes));
  }

  private push(b: Uint8Array): this {
    this.parts.push(b);
    this.length += b.length;
    return this;
  }
}

function attribute(w: Writer, name: string, a: OnnxAttribute): void {
  w.string(1, name);
  if (a.kind === 'float') w.float(2, a.value);
  else if (a.kind === 'int') w.varint(3, a.value);
  else if (a.kind === 'string') w.string(4, a.value);
  else for (const v of a.value) w.varint(8, v);
  w.varint(20, ATTRIBUTE_TYPES[a.kind]);
}

function node(w: Writer, n: OnnxNode): void {
  for (const i of n.inputs) w.string(1, i);
  for (const o of n.outputs) w.string(2, o);
  if (n.name) w.string(3, n.name);
  w.string(4, n.op);
  for (const [name, a] of Object.entries(n.attributes ?? {})) w.message(5, (m) => attribute(m, name, a));
}

function initializer(w: Writer, t: OnnxInitializer): void {
  const count = t.dims.reduce((a, b) => a * b, 1);
  if (t.data.length !== count) throw new RangeError(`initializer ${t.name}: ${t.data.length} values for dims [${t.dims.join(', ')}]`);
  for (const d of t.dims) w.varint(1, d);
  w.varint(2, FLOAT);
  w.string(8, t.name);
  // raw_data is little-endian, as Float32Array is on every platform Node runs on here.
  w.bytes(9, new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength));
}

function valueInfo(w: Writer, v: OnnxValue): void {
  w.string(1, v.name);
  w.message(2, (type) =>
    type.message(1, (tensor) => {
      tensor.varint(1, FLOAT);
      tensor.message(2, (shape) => {
        for (const d of v.dims) shape.message(1, (dim) => (typeof d === 'number' ? dim.varint(1, d) : dim.string(2, d)));
      });
    }),
  );
}

/** The model as the bytes of an ONNX ModelProto. */
export function encodeOnnxModel(m: OnnxModel): Uint8Array {
  const w = new Writer();
  w.varint(1, IR_VERSION);
  w.string(2, m.producer);
  w.message(7, (g) => {
    for (const n of m.nodes) g.message(1, (x) => node(x, n));
    g.string(2, m.graphName);
    for (const t of m.initializers) g.message(5, (x) => initializer(x, t));
    for (const v of m.inputs) g.message(11, (x) => valueInfo(x, v));
    for (const v of m.outputs) g.message(12, (x) => valueInfo(x, v));
  });
  w.message(8, (o) => o.string(1, '').varint(2, m.opset));
  return w.finish();
}
