import { foldSignals } from '@cds/policy';
import { OpenAiProvider } from './openai.provider';
import { FakeProviderServer } from './test/fake-provider.server';
import { callOf, failure, image, text, transportContract } from './test/provider-contract.kit';
import { moderation } from './test/openai-answers';

const KEY = 'sk-test-0123456789abcdefSECRET';
const errorBody = (message: string, type: string, code: string | null, param: string | null = null) => ({ error: { message, type, param, code } });

describe('openai moderation contract', () => {
  let server: FakeProviderServer;
  beforeAll(async () => (server = await FakeProviderServer.start()));
  afterAll(() => server.close());

  const make = (settings = {}, model = 'omni-moderation-latest') =>
    new OpenAiProvider({ apiKey: KEY, baseUrl: `${server.baseUrl}/v1/`, model, price: { text: 0, image: 0 } }, callOf('openai', settings, [KEY]));

  it('posts the text to /v1/moderations with the bearer key and reads category_scores', async () => {
    server.answer({
      status: 200,
      body: moderation({ harassment: 0.8189, 'harassment/threatening': 0.8045, violence: 0.9213, 'violence/graphic': 0.0128, hate: 0.0031 }, 'text'),
    });
    const result = await make({}, 'omni-moderation-2024-09-26').score(text("I'm going to hurt you, you idiot", 'en'));

    const [req] = server.requests;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v1/moderations');
    expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.json).toEqual({ model: 'omni-moderation-2024-09-26', input: "I'm going to hurt you, you idiot" });

    expect(result.cost).toBe(0);
    expect(Object.keys(result.signals).sort()).toEqual([
      'harassment',
      'harassment_threatening',
      'hate',
      'hate_threatening',
      'illicit',
      'illicit_violent',
      'self_harm',
      'self_harm_instructions',
      'self_harm_intent',
      'sexual',
      'sexual_minors',
      'violence',
      'violence_graphic',
    ]);
    expect(result.signals).toMatchObject({ harassment: 0.8189, harassment_threatening: 0.8045, violence: 0.9213, sexual: 1.2e-6 });
    const folded = foldSignals(result.signals, make().folding);
    expect(folded).toMatchObject({ harassment: 0.8189, violence: 0.9213, hate: 0.0031, sexual: 1.2e-6, 'self-harm': 1.2e-6 });
  });

  it('sends one image as a data URL and keeps only the categories scored from images', async () => {
    server.answer({ status: 200, body: moderation({ sexual: 0.93, violence: 0.02 }, 'image') });
    const request = image('jpeg');
    const result = await make().score(request);

    expect(server.requests[0].json).toEqual({
      model: 'omni-moderation-latest',
      input: [{ type: 'image_url', image_url: { url: `data:image/jpeg;base64,${request.image.bytes.toString('base64')}` } }],
    });
    expect(Object.keys(result.signals).sort()).toEqual(['self_harm', 'self_harm_instructions', 'self_harm_intent', 'sexual', 'violence', 'violence_graphic']);
    expect(foldSignals(result.signals, make().folding)).toMatchObject({ sexual: 0.93, violence: 0.02 });
    expect(foldSignals(result.signals, make().folding).harassment).toBeUndefined();
  });

  it('folds a category OpenAI adds later as a signal of its own, into no category', async () => {
    const body = moderation({}, 'text');
    (body.results[0].category_scores as Record<string, number>)['weapons/firearms'] = 0.7;
    server.answer({ status: 200, body });
    expect((await make().score(text('x'))).signals.weapons_firearms).toBe(0.7);
  });

  it('refuses an image format the endpoint does not take, without calling it', async () => {
    server.answer({ status: 200, body: moderation({}, 'image') });
    expect(await failure(make().score(image('avif')))).toMatchObject({ reason: 'unsupported_input', retryable: false });
    expect(server.requests).toHaveLength(0);
  });

  it('answers bad_response to a score that is not a probability', async () => {
    const body = moderation({}, 'text');
    (body.results[0].category_scores as Record<string, unknown>).sexual = 'high';
    server.answer({ status: 200, body });
    expect(await failure(make().score(text('x')))).toMatchObject({ reason: 'bad_response' });
    server.answer({ status: 200, body: { id: 'modr-1', model: 'omni-moderation-latest', results: [] } });
    expect(await failure(make().score(text('x')))).toMatchObject({ reason: 'bad_response' });
  });

  it('keeps what OpenAI said about a refused key for the logs, with the key redacted', async () => {
    server.answer({ status: 401, body: errorBody(`Incorrect API key provided: ${KEY}.`, 'invalid_request_error', 'invalid_api_key') });
    const err = await failure(make().score(text('x')));
    expect(err.providerMessage).toBe('invalid_api_key: Incorrect API key provided: [redacted].');
    expect(err.details).toBe('provider "openai" failed: unauthorized (HTTP 401)');
  });

  describe('failures', () => {
    transportContract({
      server: () => server,
      make: (settings) => make(settings),
      request: text('hello'),
      ok: { status: 200, body: moderation({}, 'text') },
      secrets: [KEY],
      errors: {
        badRequest: { status: 400, body: errorBody("Invalid value for 'input': expected a string or an array.", 'invalid_request_error', null, 'input') },
        // The real answer masks most of the key; the whole key here proves it is redacted anyway.
        unauthorized: {
          status: 401,
          body: errorBody(
            `Incorrect API key provided: ${KEY}. You can find your API key at https://platform.openai.com/account/api-keys.`,
            'invalid_request_error',
            'invalid_api_key',
          ),
        },
        rateLimited: {
          status: 429,
          headers: { 'x-ratelimit-limit-requests': '500', 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '120ms' },
          body: errorBody(
            'Rate limit reached for omni-moderation-latest in organization org-abc on requests per min (RPM): Limit 500, Used 500, Requested 1.',
            'requests',
            'rate_limit_exceeded',
          ),
        },
        serverError: { status: 500, body: errorBody('The server had an error while processing your request. Sorry about that!', 'server_error', null) },
      },
    });
  });
});
