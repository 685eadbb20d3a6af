import { domainFailure } from '@cds/testing';
import { requireImageFormat, sniffImageFormat, sniffOtherFormat } from './image-format';

const bytes = (...parts: (string | number[] | Buffer)[]): Buffer =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.isBuffer(part) ? part : Buffer.from(part))));
const ftyp = (...brands: string[]): Buffer => {
  const size = Buffer.alloc(4);
  size.writeUInt32BE(8 + 4 * brands.length + 4);
  return bytes(size, 'ftyp', brands[0], [0, 0, 0, 0], brands.slice(1).join(''), 'rest of the file');
};
const svg = (text: string): Buffer => Buffer.from(text, 'utf8');

describe('sniffImageFormat', () => {
  it.each([
    ['jpeg', bytes([0xff, 0xd8, 0xff, 0xe0], 'JFIF')],
    ['png', bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'IHDR')],
    ['gif', bytes('GIF89a', [1, 0, 1, 0])],
    ['gif', bytes('GIF87a', [1, 0, 1, 0])],
    ['webp', bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8 ')],
    ['tiff', bytes('II*\0', [8, 0, 0, 0])],
    ['tiff', bytes('MM\0*', [0, 0, 0, 8])],
    ['tiff', bytes('II+\0', [8, 0, 0, 0])],
    ['avif', ftyp('avif', 'mif1', 'miaf')],
    ['avif', ftyp('mif1', 'avif', 'miaf')],
    ['avif', ftyp('avis', 'msf1')],
  ])('recognises %s from its magic number', (format, input) => {
    expect(sniffImageFormat(input)).toBe(format);
  });

  it.each([
    ['a bare root element', '<svg xmlns="http://www.w3.org/2000/svg" width="10"/>'],
    ['an XML declaration', '<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg"></svg>'],
    ['a comment and a doctype', '<!-- made by hand -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x.dtd">\n<svg/>'],
    ['a doctype with an internal subset', '<?xml version="1.0"?><!DOCTYPE foo [ <!ENTITY x "y"> ]>\n<svg>'],
    ['a namespace prefix', '<svg:svg xmlns:svg="http://www.w3.org/2000/svg"/>'],
    ['a byte order mark and leading blank lines', '\ufeff\n\n   <svg>'],
  ])('recognises SVG with %s', (_, text) => {
    expect(sniffImageFormat(svg(text))).toBe('svg');
  });

  it.each([
    ['empty bytes', Buffer.alloc(0)],
    ['an HTML page with an inline SVG', svg('<!DOCTYPE html><html><body><svg></svg></body></html>')],
    ['another XML root', svg('<?xml version="1.0"?><feed><svg/></feed>')],
    ['a truncated PNG signature', bytes([0x89, 0x50, 0x4e, 0x47])],
    ['GIF with an unknown version', bytes('GIF88a')],
    ['RIFF that is not WebP', bytes('RIFF', [0, 0, 0, 0], 'AVI LIST')],
    ['a HEIC file', ftyp('heic', 'mif1', 'heic')],
    ['an MP4 video', ftyp('isom', 'iso2', 'mp41')],
    ['a BMP', bytes('BM', [0x46, 0, 0, 0, 0, 0, 0, 0, 0x36, 0, 0, 0], Array(20).fill(0))],
  ])('answers null for %s', (_, input) => {
    expect(sniffImageFormat(input)).toBeNull();
  });

  it('reads from a view into a larger buffer, not from the start of its memory', () => {
    const pool = bytes('garbage!', [0xff, 0xd8, 0xff, 0xdb]);
    expect(sniffImageFormat(new Uint8Array(pool.buffer, pool.byteOffset + 8, 4))).toBe('jpeg');
  });
});

describe('sniffOtherFormat', () => {
  it.each([
    [bytes('PK\x03\x04', Array(26).fill(0)), 'a ZIP archive (or a ZIP-based document)', false],
    [bytes('%PDF-1.7\n'), 'a PDF document', false],
    [bytes([0x1f, 0x8b, 8, 0]), 'gzip-compressed data', false],
    [ftyp('isom', 'iso2', 'mp41'), 'an MP4 video (ISO media file)', false],
    [ftyp('qt  '), 'a QuickTime video', false],
    [bytes([0x1a, 0x45, 0xdf, 0xa3]), 'a Matroska/WebM video', false],
    [bytes('RIFF', [0, 0, 0, 0], 'AVI LIST'), 'an AVI video', false],
    [bytes('BM', [0x46, 0, 0, 0, 0, 0, 0, 0, 0x36, 0, 0, 0], Array(20).fill(0)), 'a BMP image', true],
    [bytes([0, 0, 1, 0, 1, 0, 16, 16]), 'an ICO icon', true],
    [ftyp('heic', 'mif1', 'heic'), 'a HEIC/HEIF image', true],
    [bytes('8BPS', [0, 1]), 'a Photoshop (PSD) document', true],
    [svg('<!doctype html><html>'), 'an HTML document', false],
    [svg('{"image": "cat.png"}'), 'JSON text', false],
    [svg('just some words\nand a line'), 'plain text', false],
  ])('names %#: %s', (input, name, image) => {
    expect(sniffOtherFormat(input)).toEqual({ name, image });
  });

  it('answers null for binary noise', () => {
    expect(sniffOtherFormat(Buffer.from([0x00, 0x13, 0x99, 0x02, 0xaa, 0x01]))).toBeNull();
  });
});

describe('requireImageFormat', () => {
  it('returns the sniffed format of an accepted image', () => {
    expect(requireImageFormat(bytes([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpeg');
  });

  it('refuses zero bytes as INVALID_IMAGE', () => {
    const error = domainFailure(() => requireImageFormat(Buffer.alloc(0)));
    expect(error).toMatchObject({ kind: 'invalid', code: 'INVALID_IMAGE' });
    expect(error.details).toContain('zero bytes');
  });

  it('refuses SVG by name as UNSUPPORTED_IMAGE_FORMAT, asking for a raster', () => {
    const error = domainFailure(() => requireImageFormat(svg('<svg xmlns="http://www.w3.org/2000/svg"/>')));
    expect(error).toMatchObject({ kind: 'invalid', code: 'UNSUPPORTED_IMAGE_FORMAT' });
    expect(error.details).toMatch(/^SVG is not accepted.*rasterize it to PNG first.*Accepted formats: JPEG, PNG, WebP, GIF, AVIF, TIFF$/);
  });

  it('refuses an image in another format as UNSUPPORTED_IMAGE_FORMAT, naming it and the accepted ones', () => {
    const error = domainFailure(() => requireImageFormat(ftyp('heic', 'mif1')));
    expect(error).toMatchObject({
      code: 'UNSUPPORTED_IMAGE_FORMAT',
      details: 'a HEIC/HEIF image is not accepted; accepted formats: JPEG, PNG, WebP, GIF, AVIF, TIFF',
    });
  });

  it('refuses what is not an image as INVALID_IMAGE, naming what it is', () => {
    const error = domainFailure(() => requireImageFormat(bytes('%PDF-1.4\n')));
    expect(error).toMatchObject({
      code: 'INVALID_IMAGE',
      details: 'the bytes are a PDF document, not an image; accepted formats: JPEG, PNG, WebP, GIF, AVIF, TIFF',
    });
  });

  it('refuses unknown bytes as INVALID_IMAGE', () => {
    const error = domainFailure(() => requireImageFormat(Buffer.from([0, 1, 2, 3, 4, 5])));
    expect(error).toMatchObject({ code: 'INVALID_IMAGE' });
    expect(error.details).toContain('no known image signature');
  });
});
