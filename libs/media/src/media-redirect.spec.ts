import { domainFailure } from '@cds/testing';
import { isRedirect, redirectTarget } from './media-redirect';

describe('isRedirect', () => {
  it('follows 301, 302, 303, 307 and 308 only', () => {
    expect([300, 301, 302, 303, 304, 305, 307, 308, 200, 404].filter(isRedirect)).toEqual([301, 302, 303, 307, 308]);
  });
});

describe('redirectTarget', () => {
  const here = 'https://images.example.com/a/b/cat.png?x=1';

  it.each([
    ['an absolute URL', 'http://169.254.169.254/latest/meta-data', 'http://169.254.169.254/latest/meta-data'],
    ['a path', '/other.png', 'https://images.example.com/other.png'],
    ['a relative path', '../dog.png?y=2', 'https://images.example.com/a/dog.png?y=2'],
    ['a scheme-relative URL', '//cdn.example.net/c.png', 'https://cdn.example.net/c.png'],
    ['a query only', '?size=small', 'https://images.example.com/a/b/cat.png?size=small'],
    ['surrounding whitespace', '  /x.png ', 'https://images.example.com/x.png'],
  ])('resolves %s against the URL that answered', (_, location, expected) => {
    expect(redirectTarget(302, location, here)).toBe(expected);
  });

  it('takes the first of repeated Location headers', () => {
    expect(redirectTarget(301, ['/one.png', '/two.png'], here)).toBe('https://images.example.com/one.png');
  });

  it('leaves a non-http Location to the egress guard to refuse', () => {
    expect(redirectTarget(302, 'file:///etc/passwd', here)).toBe('file:///etc/passwd');
  });

  it.each([
    [undefined, 'status 302 redirect without a Location'],
    ['  ', 'status 302 redirect without a Location'],
    ['http://[::1', 'status 302 redirect to an invalid URL'],
  ])('fails the fetch for Location %p', (location, details) => {
    expect(domainFailure(() => redirectTarget(302, location, here))).toMatchObject({ code: 'MEDIA_FETCH_FAILED', details });
  });
});
