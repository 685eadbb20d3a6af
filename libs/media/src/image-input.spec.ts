import { domainFailure } from '@cds/testing';
import { base64DecodedLength, DEFAULT_MAX_IMAGE_BYTES, parseImageInput } from './image-input';

const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xfb, 0xff]);
const MAX = 1024;

afterEach(() => jest.restoreAllMocks());

describe('parseImageInput', () => {
  it.each(['https://images.example.com/cat.jpg?size=large', 'http://127.0.0.1:8080/a.png', 'HTTPS://Example.COM/x'])('takes %s as a URL', (url) => {
    expect(parseImageInput(`  ${url}\n`, MAX)).toEqual({ kind: 'url', url: new URL(url).href });
  });

  it('takes a base64 data URI of any media type', () => {
    for (const head of ['data:image/png;base64,', 'data:application/octet-stream;base64,', 'DATA:image/jpeg;name=a.jpg;BASE64,', 'data:;base64,']) {
      expect(parseImageInput(head + PNG_HEAD.toString('base64'), MAX)).toEqual({ kind: 'inline', bytes: PNG_HEAD });
    }
  });

  it('takes bare base64 in either alphabet, with or without padding, across lines', () => {
    const standard = PNG_HEAD.toString('base64');
    expect(standard).toMatch(/[+/]/);
    const urlSafe = PNG_HEAD.toString('base64url');
    const wrapped = standard.replace(/(.{4})/g, '$1\r\n ');
    for (const text of [standard, standard.replace(/=+$/, ''), urlSafe, wrapped, `\n${standard}\n`]) {
      expect(parseImageInput(text, MAX)).toEqual({ kind: 'inline', bytes: PNG_HEAD });
    }
  });

  it('decodes data of exactly the limit', () => {
    const bytes = Buffer.alloc(MAX, 7);
    expect(parseImageInput(bytes.toString('base64'), MAX)).toEqual({ kind: 'inline', bytes });
  });

  it('refuses decoded bytes past the limit as IMAGE_TOO_LARGE, saying both sizes', () => {
    const error = domainFailure(() => parseImageInput(Buffer.alloc(MAX + 1).toString('base64'), MAX));
    expect(error).toMatchObject({ kind: 'invalid', code: 'IMAGE_TOO_LARGE', details: `the image is ${MAX + 1} bytes once decoded; the limit is ${MAX} bytes` });
  });

  it('refuses a huge base64 string from its length, without decoding it', () => {
    const decode = jest.spyOn(Buffer, 'from');
    const huge = 'A'.repeat(Math.ceil(((DEFAULT_MAX_IMAGE_BYTES + 1) * 4) / 3) + 4);
    const error = domainFailure(() => parseImageInput(`data:image/png;base64,${huge}`, DEFAULT_MAX_IMAGE_BYTES));
    expect(error.code).toBe('IMAGE_TOO_LARGE');
    expect(decode).not.toHaveBeenCalled();
  });

  it.each([
    ['empty content', '   ', 'content is empty'],
    ['a URL without a scheme', 'www.example.com/cat.jpg', 'character "." (U+002E) at position 3'],
    ['another scheme', 'ftp://example.com/cat.jpg', '"ftp:" URLs are not accepted'],
    ['a file path', 'file:///etc/passwd', '"file:" URLs are not accepted'],
    ['an http URL that does not parse', 'http://exa mple.com/', 'not a valid URL'],
    ['a data URI without a comma', 'data:image/png;base64', 'no ","'],
    ['a percent-encoded data URI', 'data:image/svg+xml,%3Csvg%3E', 'must be base64-encoded'],
    ['a character outside both alphabets', 'iVBORw0KGgo*AAAA', 'character "*" (U+002A) at position 11'],
    [
      'a data URI with a character outside both alphabets',
      'data:image/png;base64,iVBO%52w0K',
      'the data URI\'s data is not valid base64: character "%" (U+0025) at position 4',
    ],
    ['padding in the middle', 'iVBO=w0K', '"=" padding in the middle'],
    ['too much padding', 'iVBORw0K===', '"=" padding in the middle'],
    ['a length no base64 has', 'iVBORw0KG', 'cannot be complete base64'],
    ['padding on a wrong length', 'iVBORw=', 'cannot be complete base64'],
    ['zero decoded bytes', 'data:image/png;base64,', 'zero bytes'],
  ])('refuses %s as INVALID_IMAGE', (_, content, details) => {
    const error = domainFailure(() => parseImageInput(content, MAX));
    expect(error).toMatchObject({ kind: 'invalid', code: 'INVALID_IMAGE' });
    expect(error.details).toContain(details);
  });

  it('tells a client who sent neither a URL nor base64 which forms are accepted', () => {
    const error = domainFailure(() => parseImageInput('cat.jpg', MAX));
    expect(error.details).toContain('content must be an http(s) URL, a data URI (data:image/...;base64,...) or base64-encoded image bytes');
  });
});

describe('base64DecodedLength', () => {
  it.each([
    [0, 0],
    [2, 1],
    [3, 2],
    [4, 3],
    [8, 6],
    [5, null],
  ])('%i characters decode to %p bytes', (length, bytes) => {
    expect(base64DecodedLength(length)).toBe(bytes);
  });
});
