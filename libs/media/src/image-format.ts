/**
 * What a byte string is, from its first bytes only: never a Content-Type, a data URI's
 * media type or a file name, which the sender controls. Only the six accepted raster
 * formats ever reach the decoder; everything else is named so the error can say what
 * was sent instead.
 */
import { DomainError } from '@cds/errors';
import { invalidImage, unsupportedImageFormat } from './media-errors';

export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'gif' | 'avif' | 'tiff';

export const IMAGE_FORMATS: readonly ImageFormat[] = ['jpeg', 'png', 'webp', 'gif', 'avif', 'tiff'];
export const ACCEPTED_FORMATS = 'JPEG, PNG, WebP, GIF, AVIF, TIFF';

/** Something that is not one of the accepted formats, named for the error message. */
export interface OtherFormat {
  /** e.g. "a ZIP archive", "a BMP image" */
  name: string;
  /** An image in a format this service does not take (UNSUPPORTED_IMAGE_FORMAT), rather than no image at all (INVALID_IMAGE). */
  image: boolean;
}

const SVG_REFUSED = 'SVG is not accepted: it is a document (scripts, external references, unbounded rendering work), not pixels; rasterize it to PNG first';

export function sniffImageFormat(bytes: Uint8Array): ImageFormat | 'svg' | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a') return 'gif';
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return 'webp';
  // Little- and big-endian TIFF, and BigTIFF (libtiff reads both).
  if (['II*\0', 'MM\0*', 'II+\0', 'MM\0+'].includes(ascii(bytes, 0, 4))) return 'tiff';
  const brands = ftypBrands(bytes);
  if (brands?.some((brand) => brand === 'avif' || brand === 'avis')) return 'avif';
  if (isSvg(bytes)) return 'svg';
  return null;
}

/** Names the known things that are not an accepted image, for a clearer refusal. */
export function sniffOtherFormat(bytes: Uint8Array): OtherFormat | null {
  const brands = ftypBrands(bytes);
  if (brands) return isoMediaFormat(brands);
  if (ascii(bytes, 0, 4) === 'RIFF') return riffFormat(ascii(bytes, 8, 4));
  for (const [test, name, image] of SIGNATURES) if (test(bytes)) return { name, image };
  return textFormat(bytes);
}

/** The accepted format of `bytes`, or the error that says why they are refused. */
export function requireImageFormat(bytes: Uint8Array): ImageFormat {
  if (bytes.length === 0) throw invalidImage('the image is empty (zero bytes)');
  const format = sniffImageFormat(bytes);
  if (format === 'svg') throw unsupportedImageFormat(`${SVG_REFUSED}. Accepted formats: ${ACCEPTED_FORMATS}`);
  if (format !== null) return format;
  throw refusalOf(bytes);
}

function refusalOf(bytes: Uint8Array): DomainError {
  const other = sniffOtherFormat(bytes);
  if (other?.image) return unsupportedImageFormat(`${other.name} is not accepted; accepted formats: ${ACCEPTED_FORMATS}`);
  const what = other ? `the bytes are ${other.name}, not an image` : 'the bytes are not an image (no known image signature)';
  return invalidImage(`${what}; accepted formats: ${ACCEPTED_FORMATS}`);
}

type Signature = [test: (bytes: Uint8Array) => boolean, name: string, image: boolean];

const sig =
  (prefix: number[] | string, offset = 0) =>
  (bytes: Uint8Array) =>
    typeof prefix === 'string' ? ascii(bytes, offset, prefix.length) === prefix : startsWith(bytes, prefix, offset);

const SIGNATURES: Signature[] = [
  [(b) => sig('BM')(b) && b.length >= 26 && b[6] === 0 && b[7] === 0 && b[8] === 0 && b[9] === 0, 'a BMP image', true],
  [(b) => sig([0, 0, 1, 0])(b) && b.length >= 6 && b[4] + b[5] > 0, 'an ICO icon', true],
  [(b) => sig([0, 0, 2, 0])(b) && b.length >= 6 && b[4] + b[5] > 0, 'a CUR cursor', true],
  [sig('8BPS'), 'a Photoshop (PSD) document', true],
  [sig([0xff, 0x0a]), 'a JPEG XL image', true],
  [sig([0, 0, 0, 0x0c, 0x4a, 0x58, 0x4c, 0x20, 0x0d, 0x0a, 0x87, 0x0a]), 'a JPEG XL image', true],
  [sig([0, 0, 0, 0x0c, 0x6a, 0x50, 0x20, 0x20, 0x0d, 0x0a, 0x87, 0x0a]), 'a JPEG 2000 image', true],
  [sig([0xff, 0x4f, 0xff, 0x51]), 'a JPEG 2000 image', true],
  [sig('qoif'), 'a QOI image', true],
  [sig([0x76, 0x2f, 0x31, 0x01]), 'an OpenEXR image', true],
  [(b) => /^P[1-7]\s$/.test(ascii(b, 0, 3)), 'a Netpbm image', true],
  [sig('PK\x03\x04'), 'a ZIP archive (or a ZIP-based document)', false],
  [sig('PK\x05\x06'), 'a ZIP archive (empty)', false],
  [sig('%PDF-'), 'a PDF document', false],
  [sig('%!PS'), 'a PostScript document', false],
  [sig([0x1f, 0x8b]), 'gzip-compressed data', false],
  [sig('BZh'), 'bzip2-compressed data', false],
  [sig([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]), 'xz-compressed data', false],
  [sig([0x28, 0xb5, 0x2f, 0xfd]), 'zstd-compressed data', false],
  [sig([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]), 'a 7-Zip archive', false],
  [sig('Rar!\x1a\x07'), 'a RAR archive', false],
  [sig([0x1a, 0x45, 0xdf, 0xa3]), 'a Matroska/WebM video', false],
  [sig('FLV\x01'), 'an FLV video', false],
  [sig('OggS'), 'an Ogg media file', false],
  [sig('fLaC'), 'a FLAC audio file', false],
  [sig('ID3'), 'an MP3 audio file', false],
  [(b) => b[0] === 0xff && [0xfb, 0xf3, 0xf2].includes(b[1]), 'an MP3 audio file', false],
  [sig([0x7f, 0x45, 0x4c, 0x46]), 'an ELF executable', false],
  [(b) => sig('MZ')(b) && b.length >= 64, 'a Windows executable', false],
  [sig('\0asm'), 'a WebAssembly module', false],
];

function isoMediaFormat(brands: string[]): OtherFormat {
  const has = (...names: string[]) => brands.some((brand) => names.includes(brand));
  if (has('heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'hevm', 'hevs', 'mif1', 'msf1')) return { name: 'a HEIC/HEIF image', image: true };
  if (has('crx ')) return { name: 'a Canon raw (CR3) image', image: true };
  if (has('qt  ')) return { name: 'a QuickTime video', image: false };
  if (has('M4A ', 'M4B ')) return { name: 'an M4A audio file', image: false };
  if (has('3gp4', '3gp5', '3gp6', '3g2a')) return { name: 'a 3GP video', image: false };
  return { name: 'an MP4 video (ISO media file)', image: false };
}

function riffFormat(kind: string): OtherFormat {
  if (kind === 'AVI ') return { name: 'an AVI video', image: false };
  if (kind === 'WAVE') return { name: 'a WAV audio file', image: false };
  return { name: 'a RIFF file', image: false };
}

/** Markup and text, so that a pasted web page or a twice-encoded string is named. */
function textFormat(bytes: Uint8Array): OtherFormat | null {
  const head = textHead(bytes).trimStart();
  if (/^<!doctype html|^<html[\s>]/i.test(head)) return { name: 'an HTML document', image: false };
  if (head.startsWith('<?xml') || head.startsWith('<')) return { name: 'an XML document', image: false };
  if (head.startsWith('{') || head.startsWith('[')) return { name: 'JSON text', image: false };
  // No control character but tab and line breaks in the first 512 bytes: text rather than binary.
  const sample = bytes.subarray(0, 512);
  if (sample.length > 0 && sample.every((b) => b === 9 || b === 10 || b === 13 || (b >= 0x20 && b !== 0x7f))) {
    return { name: 'plain text', image: false };
  }
  return null;
}

/** The root element is `svg` once any XML declaration, comments and doctype are passed. */
function isSvg(bytes: Uint8Array): boolean {
  const text = textHead(bytes);
  let at = 0;
  for (;;) {
    while (at < text.length && /\s/.test(text[at])) at++;
    if (text.startsWith('<?', at)) at = skipPast(text, '?>', at);
    else if (text.startsWith('<!--', at)) at = skipPast(text, '-->', at);
    else if (/^<!doctype\s/i.test(text.slice(at, at + 10))) {
      if (/^<!doctype\s+svg[\s>[]/i.test(text.slice(at, at + 20))) return true;
      const subset = text.indexOf('[', at);
      const close = text.indexOf('>', at);
      at = subset !== -1 && subset < close ? skipPast(text, ']>', at) : skipPast(text, '>', at);
    } else return /^<([\w.-]+:)?svg[\s>/]/i.test(text.slice(at, at + 64));
    if (at < 0) return false;
  }
}

function skipPast(text: string, end: string, from: number): number {
  const found = text.indexOf(end, from);
  return found === -1 ? -1 : found + end.length;
}

/** The first 4 KiB as text (latin1 keeps every byte; markup is ASCII), without a UTF-8 byte order mark. */
function textHead(bytes: Uint8Array): string {
  const start = startsWith(bytes, [0xef, 0xbb, 0xbf]) ? 3 : 0;
  return Buffer.from(bytes.buffer, bytes.byteOffset + start, Math.max(0, Math.min(bytes.length, 4096) - start)).toString('latin1');
}

/** Major and compatible brands of an ISO base media file (`....ftyp`), or null. */
function ftypBrands(bytes: Uint8Array): string[] | null {
  if (bytes.length < 16 || ascii(bytes, 4, 4) !== 'ftyp') return null;
  const boxSize = ((bytes[0] << 24) | (bytes[1] << 16) | (bytes[2] << 8) | bytes[3]) >>> 0;
  const end = Math.min(boxSize, bytes.length, 8 + 4 + 4 + 4 * 64);
  const brands = [ascii(bytes, 8, 4)];
  for (let at = 16; at + 4 <= end; at += 4) brands.push(ascii(bytes, at, 4));
  return brands;
}

function startsWith(bytes: Uint8Array, prefix: number[], offset = 0): boolean {
  if (bytes.length < offset + prefix.length) return false;
  return prefix.every((b, i) => bytes[offset + i] === b);
}

function ascii(bytes: Uint8Array, offset: number, length: number): string {
  if (bytes.length < offset + length) return '';
  return String.fromCharCode(...bytes.subarray(offset, offset + length));
}
