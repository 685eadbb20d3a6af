import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ApiClient, RunningService, startService } from '@cds/testing';
import { textImage } from './support/image-fixtures';
import { OtlpReceiver, ReceivedSpan } from './support/otlp-receiver';
import { eventually, TestReceiver } from './webhook-test-receiver';

const SERVER = 2;
const CONSUMER = 5;

/** A traceparent the test starts its trace with, so it knows the trace id to look for. */
function newTrace(): { traceId: string; traceparent: string } {
  const traceId = randomBytes(16).toString('hex');
  return { traceId, traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` };
}

/** A preload that writes, when a process exits, how many modules of OpenTelemetry's SDK
 * and OTLP exporter it loaded (one file per process: in distributed mode every process of
 * the deployment has it). @opentelemetry/api itself is left out: @elastic/transport loads
 * it in every process, tracing or not. */
function loadedModulesProbe(): { preload: string; counts: () => number[] } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cds-otel-probe-'));
  const preload = path.join(dir, 'probe.js');
  fs.writeFileSync(
    preload,
    `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(dir)} + '/loaded.' + process.pid, String(Object.keys(require.cache).filter((k) => /[\\\\/]@opentelemetry[\\\\/](sdk-trace|exporter-trace-otlp-http|otlp-|context-async-hooks)/.test(k)).length)));\n`,
  );
  const counts = () =>
    fs
      .readdirSync(dir)
      .filter((f) => f.startsWith('loaded.'))
      .map((f) => Number(fs.readFileSync(path.join(dir, f), 'utf8')));
  return { preload, counts };
}

/**
 * OpenTelemetry: with OTEL_EXPORTER_OTLP_ENDPOINT set, spans go over OTLP/HTTP to a
 * receiver in this test: a span per request with children for policy resolution, each
 * provider call, the append, the projection wait and OCR; an async batch's and a video's
 * jobs continue the trace of the request that accepted them (in the worker process, in
 * distributed mode). Without it, nothing of OpenTelemetry is loaded.
 */
describe('tracing (OpenTelemetry, OTLP/HTTP)', () => {
  let receiver: OtlpReceiver;
  let hooks: TestReceiver;
  let svc: RunningService;
  let api: ApiClient;
  const probe = loadedModulesProbe();

  beforeAll(async () => {
    receiver = await OtlpReceiver.start();
    hooks = await TestReceiver.start('/batch');
    svc = await startService({
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_BSP_SCHEDULE_DELAY: '100',
        OTEL_SERVICE_NAME: 'cds-e2e',
        EGRESS_ALLOW_LOOPBACK: 'true',
        NODE_OPTIONS: `--require ${probe.preload}`,
      },
    });
    api = new ApiClient(svc.baseUrl, svc.adminKey);
  });
  afterAll(async () => {
    await svc?.stop();
    await hooks?.close();
    await receiver?.close();
  });

  const spansOf = (traceId: string, names: string[], what: string) =>
    eventually(
      async () => {
        const spans = receiver.trace(traceId);
        return names.every((n) => spans.some((s) => s.name === n)) ? spans : undefined;
      },
      what,
      30_000,
    );
  const one = (spans: ReceivedSpan[], name: string) => {
    const found = spans.filter((s) => s.name === name);
    expect({ name, count: found.length > 0 }).toEqual({ name, count: true });
    return found[0];
  };

  it('exports a span per request, the decision and request ids on it, with children for the policy, the provider, the append and the projection wait', async () => {
    const { traceId, traceparent } = newTrace();
    const r = await api.post('/v1/check', { content: 'have a nice day', policyId: 'default' }, { traceparent, 'x-request-id': 'trace-otel-1' });
    expect(r.status).toBe(200);
    const spans = await spansOf(traceId, ['POST /v1/check', 'policy.resolve', 'provider.call', 'eventlog.append'], 'the spans of the check');
    const request = one(spans, 'POST /v1/check');
    expect(request).toMatchObject({
      kind: SERVER,
      parentSpanId: traceparent.split('-')[2],
      attributes: {
        'http.request.method': 'POST',
        'http.route': '/v1/check',
        'http.response.status_code': 200,
        'cds.request_id': 'trace-otel-1',
        'cds.decision_id': r.body.decisionId,
        'cds.tenant': 'default',
      },
      resource: { 'service.name': 'cds-e2e' },
    });
    expect(one(spans, 'policy.resolve')).toMatchObject({ parentSpanId: request.spanId, attributes: { 'cds.policy_id': 'default' } });
    expect(one(spans, 'provider.call')).toMatchObject({
      parentSpanId: request.spanId,
      attributes: { 'cds.provider': 'local', 'cds.modality': 'text', 'cds.cached': false, 'cds.outcome': 'ok' },
    });
    expect(one(spans, 'eventlog.append')).toMatchObject({ parentSpanId: request.spanId, attributes: { 'cds.topic': 'decisions', 'cds.events': 1 } });
    // Never content: no attribute carries the text checked.
    expect(JSON.stringify(spans)).not.toContain('have a nice day');

    const read = newTrace();
    expect((await api.get(`/v1/decisions/${r.body.decisionId}`, { traceparent: read.traceparent })).status).toBe(200);
    const readSpans = await spansOf(read.traceId, ['GET /v1/decisions/:decisionId', 'projection.wait'], 'the spans of the read');
    expect(one(readSpans, 'projection.wait').parentSpanId).toBe(one(readSpans, 'GET /v1/decisions/:decisionId').spanId);
  });

  it('puts OCR under the request of an image check', async () => {
    const { traceId, traceparent } = newTrace();
    const r = await api.post(
      '/v1/check',
      { content: (await textImage('hello there')).toString('base64'), contentType: 'image', policyId: 'default' },
      { traceparent },
    );
    expect(r.status).toBe(200);
    const spans = await spansOf(traceId, ['POST /v1/check', 'ocr'], 'the OCR span');
    expect(one(spans, 'ocr')).toMatchObject({ parentSpanId: one(spans, 'POST /v1/check').spanId, attributes: { 'cds.language': 'en' } });
    expect(spans.filter((s) => s.name === 'provider.call').map((s) => s.attributes['cds.modality'])).toEqual(expect.arrayContaining(['image', 'text']));
  });

  it("continues the request's trace in the job of an async batch (the worker, in distributed mode)", async () => {
    const { traceId, traceparent } = newTrace();
    const r = await api.post(
      '/v1/batch/check/async',
      { policyId: 'default', webhookUrl: hooks.url, items: [{ id: 'a', content: 'see you tomorrow' }] },
      { traceparent, 'x-request-id': 'trace-otel-batch' },
    );
    expect(r.status).toBe(202);
    const spans = await spansOf(traceId, ['POST /v1/batch/check/async', 'batch.job'], 'the spans of the batch and its job');
    const request = one(spans, 'POST /v1/batch/check/async');
    const accepted = spans.find((s) => s.name === 'eventlog.append' && s.parentSpanId === request.spanId && s.attributes['cds.topic'] === 'jobs');
    expect(accepted).toBeDefined();
    const job = one(spans, 'batch.job');
    expect(job).toMatchObject({ kind: CONSUMER, attributes: { 'cds.batch_id': r.body.batchId, 'cds.request_id': 'trace-otel-batch' } });
    // The job's parent is the span that wrote the event it follows: the request's.
    expect(job.parentSpanId).toBe(request.spanId);
    if (svc.topology) expect(job.resource['cds.role']).toBe('worker');
    const inJob = await eventually(async () => {
      const now = receiver.trace(traceId).filter((s) => s.parentSpanId === job.spanId);
      return now.some((s) => s.name === 'provider.call') && now.some((s) => s.name === 'eventlog.append' && s.attributes['cds.topic'] === 'decisions')
        ? now
        : undefined;
    }, "the job's provider call and its decision's append");
    expect(inJob.find((s) => s.name === 'provider.call')?.attributes).toMatchObject({ 'cds.provider': 'local', 'cds.outcome': 'ok' });
  });

  it('loads OpenTelemetry only when an endpoint is set', async () => {
    const plain = loadedModulesProbe();
    const untraced = await startService({ env: { NODE_OPTIONS: `--require ${plain.preload}` } });
    try {
      expect((await new ApiClient(untraced.baseUrl, untraced.adminKey).post('/v1/check', { content: 'hello', policyId: 'default' })).status).toBe(200);
    } finally {
      await untraced.stop();
    }
    expect(plain.counts().length).toBeGreaterThan(0);
    expect(plain.counts().filter((n) => n > 0)).toEqual([]);
    await svc.stop();
    expect(Math.max(...probe.counts())).toBeGreaterThan(0);
  });
});
