import { CdsError, errorFromResponse, parseRetryAfter } from './cds.error';

const where = { method: 'GET', path: '/v1/policies/nope' };
const now = Date.UTC(2025, 0, 1);

describe('errorFromResponse', () => {
  it("carries the spec's error body", () => {
    const body = JSON.stringify({ error: 'Policy not found', code: 'POLICY_NOT_FOUND', details: 'no policy nope in this tenant' });
    const e = errorFromResponse(404, 'Not Found', body, null, where, now);
    expect(e).toBeInstanceOf(CdsError);
    expect(e).toBeInstanceOf(Error);
    expect(e).toMatchObject({
      status: 404,
      code: 'POLICY_NOT_FOUND',
      error: 'Policy not found',
      details: 'no policy nope in this tenant',
      retryAfter: undefined,
    });
    expect(e.message).toBe('GET /v1/policies/nope: 404 POLICY_NOT_FOUND: Policy not found (no policy nope in this tenant)');
  });

  it('takes retryAfter from a 429 body, else from the Retry-After header', () => {
    const body = JSON.stringify({ error: 'Rate limit exceeded', code: 'RATE_LIMITED', details: 'retry after 7 s', retryAfter: 7 });
    expect(errorFromResponse(429, '', body, '9', where, now).retryAfter).toBe(7);
    const bare = JSON.stringify({ error: 'Rate limit exceeded' });
    const e = errorFromResponse(429, 'Too Many Requests', bare, '9', where, now);
    expect(e).toMatchObject({ status: 429, code: 'HTTP_429', error: 'Rate limit exceeded', details: '', retryAfter: 9 });
  });

  it("turns a body that is not the service's (a proxy page) into HTTP_<status> with the start of the body", () => {
    const e = errorFromResponse(502, 'Bad Gateway', '<html>\n  <body>upstream down</body></html>', null, where, now);
    expect(e).toMatchObject({ status: 502, code: 'HTTP_502', error: 'Bad Gateway', details: '<html> <body>upstream down</body></html>' });
    expect(errorFromResponse(500, '', '', null, where, now)).toMatchObject({ code: 'HTTP_500', error: 'HTTP 500', details: '' });
    expect(errorFromResponse(400, 'Bad Request', '[1,2]', null, where, now)).toMatchObject({ code: 'HTTP_400', details: '[1,2]' });
  });
});

describe('parseRetryAfter', () => {
  it('reads delta-seconds and HTTP dates, as milliseconds', () => {
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('1.5', now)).toBe(1500);
    expect(parseRetryAfter(new Date(now + 4000).toUTCString(), now)).toBe(4000);
    expect(parseRetryAfter(new Date(now - 4000).toUTCString(), now)).toBe(0);
  });

  it('ignores what it cannot read', () => {
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-3', now)).toBeUndefined();
  });
});
