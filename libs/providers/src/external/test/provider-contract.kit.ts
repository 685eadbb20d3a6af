import { ImageForScoring, ModerationProvider, ScoreRequest } from '../../port/provider.port';
import { CallSettings, ExternalCall } from '../external-call';
import { ProviderCallError } from '../provider-call.error';
import { FakeProviderServer, Reply } from './fake-provider.server';

/** Short limits so the whole contract suite runs in seconds. The time limit of an answer
 * is the exception: it stays far above what a local server takes even on a loaded machine
 * (at 250 ms a slow answer was taken for a timeout under load), and the test of the limit
 * sets its own. */
export const FAST: CallSettings = {
  timeoutMs: 2_000,
  retryBudgetMs: 3000,
  maxRetries: 2,
  circuitFailures: 3,
  circuitCooldownMs: 200,
  backoff: { baseMs: 10, maxMs: 40 },
};

export function callOf(
  provider: string,
  settings: Partial<CallSettings>,
  secrets: string[],
  classify?: ConstructorParameters<typeof ExternalCall>[3],
): ExternalCall {
  return new ExternalCall(provider, { ...FAST, ...settings }, secrets, classify);
}

export const text = (t: string, language = 'en'): ScoreRequest => ({ modality: 'text', text: t, language });

/** An image as the check path hands it over; the bytes are what the provider receives. */
export function image(format = 'png', width = 320, height = 240): ScoreRequest & { image: ImageForScoring } {
  const bytes = Buffer.from(`\x89PNG\r\n\x1a\n-fake-${format}-bytes-${width}x${height}`, 'latin1');
  return { modality: 'image', language: 'en', image: { bytes, format, width, height, frames: [], frameSize: 224 } };
}

/** The ProviderCallError a call fails with (the test fails if it succeeds or throws anything else). */
export async function failure(call: Promise<unknown>): Promise<ProviderCallError> {
  try {
    await call;
  } catch (err) {
    if (err instanceof ProviderCallError) return err;
    throw err;
  }
  throw new Error('expected the call to fail');
}

export async function until(condition: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

export interface TransportContract {
  server: () => FakeProviderServer;
  /** A provider on the fake server with these call settings. */
  make: (settings: Partial<CallSettings>) => ModerationProvider;
  request: ScoreRequest;
  /** A documented success answer. */
  ok: Reply;
  /** The provider's documented error answers. */
  errors: { badRequest: Reply; unauthorized: Reply; rateLimited: Reply; serverError: Reply };
  /** Secrets that must never show in an error. */
  secrets: string[];
}

/**
 * The failure behaviour every external provider shares, run against its own documented
 * error answers: retries (counted on the server), Retry-After, no retry on 400/401,
 * the time limit, broken answers, and the circuit.
 */
export function transportContract(c: TransportContract): void {
  const hits = () => c.server().requests.length;

  it('retries a 429 after the Retry-After it names, then succeeds', async () => {
    c.server().answer({ ...c.errors.rateLimited, headers: { ...c.errors.rateLimited.headers, 'retry-after': '1' } }, c.ok);
    await c.make({}).score(c.request);
    const [first, second] = c.server().requests;
    expect(hits()).toBe(2);
    expect(second.at - first.at).toBeGreaterThanOrEqual(900);
  });

  it('retries 5xx with backoff up to the retry limit, and reports the last failure', async () => {
    c.server().answer(c.errors.serverError, c.errors.serverError, c.ok);
    await expect(c.make({}).score(c.request)).resolves.toMatchObject({ signals: expect.any(Object) });
    expect(hits()).toBe(3);

    c.server().answer(c.errors.serverError);
    const err = await failure(c.make({ maxRetries: 2 }).score(c.request));
    expect(err).toMatchObject({ provider: c.make({}).name, reason: 'server_error', status: 500, retryable: true, code: 'PROVIDER_UNAVAILABLE' });
    expect(hits()).toBe(3);
  });

  it('gives up when the provider asks for a wait longer than the budget', async () => {
    c.server().answer({ ...c.errors.rateLimited, headers: { ...c.errors.rateLimited.headers, 'retry-after': '30' } }, c.ok);
    const err = await failure(c.make({}).score(c.request));
    expect(err).toMatchObject({ reason: 'rate_limited', status: 429, retryable: true });
    expect(hits()).toBe(1);
  });

  it('does not retry a 401 or a 400, and never shows the key', async () => {
    c.server().answer(c.errors.unauthorized, c.ok);
    const unauthorized = await failure(c.make({}).score(c.request));
    expect(unauthorized).toMatchObject({ reason: 'unauthorized', retryable: false });
    expect(hits()).toBe(1);
    for (const secret of c.secrets) {
      expect(`${unauthorized.message} ${unauthorized.details} ${unauthorized.providerMessage} ${unauthorized.stack ?? ''}`).not.toContain(secret);
    }

    c.server().answer(c.errors.badRequest, c.ok);
    expect(await failure(c.make({}).score(c.request))).toMatchObject({ reason: 'bad_request', status: 400, retryable: false });
    expect(hits()).toBe(1);
  });

  it('stops waiting for a slow answer at the time limit', async () => {
    c.server().answer({ ...c.ok, delayMs: 1500 });
    const started = Date.now();
    const err = await failure(c.make({ timeoutMs: 150, maxRetries: 0 }).score(c.request));
    expect(err).toMatchObject({ reason: 'timeout', retryable: true });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('turns malformed JSON and an undocumented shape into bad_response, without retrying', async () => {
    c.server().answer({ status: 200, raw: '{"results": [{"flagged": tru' });
    expect(await failure(c.make({}).score(c.request))).toMatchObject({ reason: 'bad_response', retryable: false });
    expect(hits()).toBe(1);

    for (const body of [{ unexpected: true }, [], 'ok', null]) {
      c.server().answer({ status: 200, body });
      expect(await failure(c.make({}).score(c.request))).toMatchObject({ reason: 'bad_response' });
    }
  });

  it('opens the circuit after consecutive failures, fails fast, then lets one probe through', async () => {
    const provider = c.make({ maxRetries: 0, circuitFailures: 3, circuitCooldownMs: 200 });
    c.server().answer(c.errors.serverError);
    for (let i = 0; i < 3; i++) await failure(provider.score(c.request));
    expect(provider.circuitState?.()).toBe('open');

    const fast = await failure(provider.score(c.request));
    expect(fast).toMatchObject({ reason: 'circuit_open', retryable: true });
    expect(hits()).toBe(3);

    await until(() => provider.circuitState?.() === 'half_open');
    c.server().answer({ ...c.ok, delayMs: 100 });
    const probe = provider.score(c.request);
    // While the probe is out, others still fail fast.
    expect(await failure(provider.score(c.request))).toMatchObject({ reason: 'circuit_open' });
    await probe;
    expect(hits()).toBe(1);
    expect(provider.circuitState?.()).toBe('closed');
  });

  it('opens again when the probe fails', async () => {
    const provider = c.make({ maxRetries: 0, circuitFailures: 1, circuitCooldownMs: 150 });
    c.server().answer(c.errors.serverError);
    await failure(provider.score(c.request));
    await until(() => provider.circuitState?.() === 'half_open');
    expect(await failure(provider.score(c.request))).toMatchObject({ reason: 'server_error' });
    expect(provider.circuitState?.()).toBe('open');
  });
}
