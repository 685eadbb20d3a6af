import { foldSignals } from '@cds/policy';
import { GoogleVisionProvider } from './google-vision.provider';
import { classifyGoogleError } from './google-vision.signals';
import { FakeProviderServer } from './test/fake-provider.server';
import { callOf, failure, image, text, transportContract } from './test/provider-contract.kit';

const KEY = 'AIzaSyD-test_key+with/odd=chars';

const safeSearch = (annotation: Record<string, string>) => ({ responses: [{ safeSearchAnnotation: annotation }] });
/** google.rpc.Status as Cloud Vision sends it for a whole-request error. */
const googleError = (code: number, status: string, message: string, details: unknown[] = []) => ({ error: { code, message, status, details } });

describe('google cloud vision safesearch contract', () => {
  let server: FakeProviderServer;
  beforeAll(async () => (server = await FakeProviderServer.start()));
  afterAll(() => server.close());

  const make = (settings = {}) =>
    new GoogleVisionProvider(
      { apiKey: KEY, baseUrl: server.baseUrl, price: 0.0015 },
      callOf('google-vision', settings, [KEY, encodeURIComponent(KEY)], classifyGoogleError),
    );

  it('posts the image with SAFE_SEARCH_DETECTION to /v1/images:annotate?key= and reads the likelihoods', async () => {
    server.answer({
      status: 200,
      body: safeSearch({ adult: 'LIKELY', spoof: 'VERY_UNLIKELY', medical: 'UNLIKELY', violence: 'POSSIBLE', racy: 'VERY_LIKELY' }),
    });
    const request = image('png');
    const result = await make().score(request);

    const [req] = server.requests;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v1/images:annotate');
    expect(req.query.get('key')).toBe(KEY);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.json).toEqual({ requests: [{ image: { content: request.image.bytes.toString('base64') }, features: [{ type: 'SAFE_SEARCH_DETECTION' }] }] });

    expect(result).toEqual({ signals: { adult: 0.8, racy: 1, violence: 0.5, medical: 0.2, spoof: 0 }, cost: 0.0015 });
    const folded = foldSignals(result.signals, make().folding);
    expect(folded).toMatchObject({ sexual: 0.8, violence: 0.5 });
    expect(Object.keys(folded).filter((k) => ['hate', 'harassment', 'self-harm'].includes(k))).toEqual([]);
  });

  it('gives no signal for UNKNOWN', async () => {
    server.answer({ status: 200, body: safeSearch({ adult: 'UNKNOWN', spoof: 'UNKNOWN', medical: 'UNKNOWN', violence: 'VERY_UNLIKELY', racy: 'UNKNOWN' }) });
    expect((await make().score(image())).signals).toEqual({ violence: 0 });
  });

  it('turns an item error into a ProviderCallError: bad image data is not retried, a transient one is', async () => {
    server.answer({ status: 200, body: { responses: [{ error: { code: 3, message: 'Bad image data.' } }] } });
    expect(await failure(make().score(image()))).toMatchObject({ reason: 'bad_request', retryable: false, status: 200, providerMessage: '3: Bad image data.' });
    expect(server.requests).toHaveLength(1);

    server.answer(
      { status: 200, body: { responses: [{ error: { code: 14, message: 'The service is currently unavailable.' } }] } },
      { status: 200, body: safeSearch({ adult: 'UNLIKELY' }) },
    );
    expect((await make().score(image())).signals).toEqual({ adult: 0.2 });
    expect(server.requests).toHaveLength(2);
  });

  it('reads a 400 about the key as unauthorized', async () => {
    server.answer({
      status: 400,
      body: googleError(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: 'API_KEY_INVALID',
          domain: 'googleapis.com',
          metadata: { service: 'vision.googleapis.com' },
        },
      ]),
    });
    expect(await failure(make().score(image()))).toMatchObject({ reason: 'unauthorized', status: 400, retryable: false });
  });

  it('takes images only, in the formats Vision reads', async () => {
    server.answer({ status: 200, body: safeSearch({ adult: 'UNLIKELY' }) });
    expect(await failure(make().score(text('x')))).toMatchObject({ reason: 'unsupported_input' });
    expect(await failure(make().score(image('avif')))).toMatchObject({ reason: 'unsupported_input' });
    expect(server.requests).toHaveLength(0);
  });

  it('answers bad_response to a likelihood it does not know or a missing annotation', async () => {
    server.answer({ status: 200, body: safeSearch({ adult: 'SOMEWHAT_LIKELY' }) });
    expect(await failure(make().score(image()))).toMatchObject({ reason: 'bad_response' });
    server.answer({ status: 200, body: { responses: [{}] } });
    expect(await failure(make().score(image()))).toMatchObject({ reason: 'bad_response' });
  });

  describe('failures', () => {
    transportContract({
      server: () => server,
      make: (settings) => make(settings),
      request: image(),
      ok: {
        status: 200,
        body: safeSearch({ adult: 'VERY_UNLIKELY', spoof: 'VERY_UNLIKELY', medical: 'VERY_UNLIKELY', violence: 'VERY_UNLIKELY', racy: 'UNLIKELY' }),
      },
      secrets: [KEY, encodeURIComponent(KEY)],
      errors: {
        badRequest: { status: 400, body: googleError(400, 'INVALID_ARGUMENT', 'Request must specify image and features.') },
        unauthorized: {
          status: 403,
          body: googleError(403, 'PERMISSION_DENIED', 'Cloud Vision API has not been used in project 123456789 before or it is disabled.'),
        },
        rateLimited: {
          status: 429,
          body: googleError(
            429,
            'RESOURCE_EXHAUSTED',
            "Quota exceeded for quota metric 'Requests' and limit 'Requests per minute' of service 'vision.googleapis.com'.",
          ),
        },
        serverError: { status: 500, body: googleError(500, 'INTERNAL', 'Internal error encountered.') },
      },
    });
  });
});
