import { deflateRawSync, inflateRawSync } from 'zlib';
import { FeaturizerConfig } from './text-featurizer';

/**
 * Binary layout of `local-text-model.bin`:
 *   8 bytes magic "CDSLTXT1" | uint32 LE header length | header JSON (UTF-8) |
 *   zero padding to a multiple of 8 | weight table.
 * The table holds one int8 weight per (hash bucket, signal), bucket-major so one feature
 * reads its signals' weights from one cache line; `scales[k]` turns signal k's int8
 * back into a float. It is raw-deflated when `tableEncoding` says so.
 */
export const LOCAL_TEXT_MODEL_MAGIC = 'CDSLTXT1';

export interface PlattCalibration {
  a: number;
  b: number;
}

/**
 * A lexicon score path: when a text hits `lexiconCategory`, each listed signal scores at
 * least `score` (the hit's precision measured on training data). Used where labelled data
 * is too thin for the n-gram heads, e.g. first-person self-harm phrases outside English.
 */
export interface LexiconFloor {
  lexiconCategory: string;
  signals: string[];
  score: number;
}

export interface LocalTextModelHeader {
  format: 1;
  signals: string[];
  featurizer: FeaturizerConfig;
  tableEncoding: 'int8' | 'int8-deflate';
  /** per signal: float weight = int8 * scale */
  scales: number[];
  /** per signal intercept (raw logit space) */
  bias: number[];
  denseNames: string[];
  /** denseWeights[j][k]: weight of dense feature j for signal k */
  denseWeights: number[][];
  calibration: PlattCalibration[];
  lexiconFile: string;
  lexiconSha256: string;
  lexiconFloors: LexiconFloor[];
}

export interface LocalTextModel {
  header: LocalTextModelHeader;
  /** (1 << bits) * signals.length int8 weights, bucket-major */
  table: Int8Array;
}

/** The model or lexicon file is missing or malformed; raised at load time, never while scoring. */
export class LocalTextModelFormatError extends Error {
  readonly code = 'LOCAL_TEXT_MODEL_INVALID';
  constructor(message: string) {
    super(message);
    this.name = 'LocalTextModelFormatError';
  }
}

export function encodeLocalTextModel(model: LocalTextModel): Buffer {
  const { header, table } = model;
  const expected = (1 << header.featurizer.bits) * header.signals.length;
  if (table.length !== expected) throw new LocalTextModelFormatError(`table has ${table.length} weights, expected ${expected}`);
  const raw = Buffer.from(table.buffer, table.byteOffset, table.byteLength);
  const body = header.tableEncoding === 'int8-deflate' ? deflateRawSync(raw, { level: 9 }) : raw;
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const pre = 8 + 4 + json.length;
  const pad = (8 - (pre % 8)) % 8;
  const len = Buffer.alloc(4);
  len.writeUInt32LE(json.length, 0);
  return Buffer.concat([Buffer.from(LOCAL_TEXT_MODEL_MAGIC, 'ascii'), len, json, Buffer.alloc(pad), body]);
}

export function decodeLocalTextModel(buf: Buffer): LocalTextModel {
  if (buf.length < 12 || buf.toString('ascii', 0, 8) !== LOCAL_TEXT_MODEL_MAGIC) {
    throw new LocalTextModelFormatError('not a local text model (bad magic)');
  }
  const hlen = buf.readUInt32LE(8);
  if (12 + hlen > buf.length) throw new LocalTextModelFormatError('truncated header');
  const header = JSON.parse(buf.toString('utf8', 12, 12 + hlen)) as LocalTextModelHeader;
  if (header.format !== 1) throw new LocalTextModelFormatError(`unsupported format ${String(header.format)}`);
  const K = header.signals.length;
  for (const key of ['scales', 'bias', 'calibration'] as const) {
    if (!Array.isArray(header[key]) || header[key].length !== K) throw new LocalTextModelFormatError(`header.${key} must have ${K} entries`);
  }
  const pre = 12 + hlen;
  const start = pre + ((8 - (pre % 8)) % 8);
  const body = buf.subarray(start);
  const raw = header.tableEncoding === 'int8-deflate' ? inflateRawSync(body) : body;
  const expected = (1 << header.featurizer.bits) * K;
  if (raw.length !== expected) throw new LocalTextModelFormatError(`table has ${raw.length} bytes, expected ${expected}`);
  const table = new Int8Array(expected);
  table.set(new Int8Array(raw.buffer, raw.byteOffset, raw.length));
  return { header, table };
}
