import * as fs from 'node:fs';
import * as path from 'node:path';
import { ApiClient, e2eMode, RunningService, startService } from '@cds/testing';

const TOKEN = 'metrics-token-0123456789';

/** The Prometheus text of one scrape, as {series line -> value}. */
async function scrape(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; type: string | null; series: Map<string, number>; text: string }> {
  const res = await fetch(url, { headers });
  const text = await res.text();
  const series = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    series.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return { status: res.status, type: res.headers.get('content-type'), series, text };
}

const sum = (series: Map<string, number>, name: string, ...parts: string[]) =>
  [...series].filter(([k]) => k.startsWith(`${name}{`) && parts.every((p) => k.includes(p))).reduce((a, [, v]) => a + v, 0);

describe('GET /metrics (Prometheus)', () => {
  let svc: RunningService;
  let api: ApiClient;

  beforeAll(async () => {
    svc = await startService({ env: { METRICS_TOKEN: TOKEN } });
    api = new ApiClient(svc.baseUrl, svc.adminKey);
  });
  afterAll(() => svc?.stop());

  /** Every api process's series summed (in distributed mode the requests alternate between two replicas). */
  async function scrapeApis(headers: Record<string, string>) {
    const urls = svc.topology ? svc.topology.apis.map((a) => a.baseUrl) : [svc.baseUrl];
    const all = await Promise.all(urls.map((u) => scrape(`${u}/metrics`, headers)));
    const series = new Map<string, number>();
    for (const one of all)
      for (const [k, v] of one.series) series.set(k.replace(/,?role="[a-z]+"/, ''), (series.get(k.replace(/,?role="[a-z]+"/, '')) ?? 0) + v);
    return { status: Math.max(...all.map((a) => a.status)), type: all[0].type, series, text: all.map((a) => a.text).join('\n') };
  }

  it('counts requests by route pattern and status, decisions by action, appends by topic', async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    const before = await scrapeApis(auth);
    expect(before.status).toBe(200);
    expect(before.type).toMatch(/^text\/plain/);
    const d = await api.post('/v1/check', { content: 'have a nice day', policyId: 'default' });
    await api.get(`/v1/decisions/${d.body.decisionId}`);
    await api.get('/v1/decisions/no-such-id');
    const after = await scrapeApis(auth);
    const delta = (name: string, ...parts: string[]) => sum(after.series, name, ...parts) - sum(before.series, name, ...parts);
    expect(delta('cds_http_requests_total', 'route="/v1/check"', 'status="200"', 'method="POST"')).toBe(1);
    expect(delta('cds_http_requests_total', 'route="/v1/decisions/:decisionId"', 'status="404"')).toBe(1);
    expect(after.text).not.toContain(d.body.decisionId);
    expect(delta('cds_decisions_total', 'action="allow"', 'content_type="text"', 'provider="local"')).toBe(1);
    expect(delta('cds_event_log_append_duration_seconds_count', 'topic="decisions"')).toBe(1);
    expect(delta('cds_provider_request_duration_seconds_count', 'provider="local"', 'modality="text"')).toBe(1);
    // The embedded process also projects and dispatches; api replicas do neither.
    const gauges = svc.topology
      ? ['cds_image_frames_queued', 'cds_ocr_waiting']
      : ['cds_projector_lag_events', 'cds_webhook_deliveries_pending', 'cds_image_frames_queued', 'cds_ocr_waiting'];
    // prom-client's process metrics under prom-client's names, as Node.js dashboards read them
    const standard = ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes'];
    for (const name of gauges) expect({ name, present: after.text.includes(name) }).toEqual({ name, present: true });
    for (const name of standard) expect({ name, sampled: new RegExp(`^${name}\\{`, 'm').test(after.text) }).toEqual({ name, sampled: true });
    expect(after.text).not.toMatch(/^cds_(process|nodejs)_/m);
  });

  it('counts what each log consumer did with the events it was handed', async () => {
    // the projector runs in the embedded process, or in its own (distributed)
    const projectorUrl = `${svc.topology ? svc.topology.projector.baseUrl : svc.baseUrl}/metrics`;
    const auth = { authorization: `Bearer ${TOKEN}` };
    const applied = async () => sum((await scrape(projectorUrl, auth)).series, 'cds_log_events_handled_total', 'handler="projector-', 'outcome="applied"');
    const before = await applied();
    const d = await api.post('/v1/check', { content: 'have a nice day', policyId: 'default' });
    expect((await api.get(`/v1/decisions/${d.body.decisionId}`)).status).toBe(200);
    const deadline = Date.now() + 5000;
    let after = await applied();
    while (after === before && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      after = await applied();
    }
    expect(after - before).toBeGreaterThanOrEqual(1);
  });

  it('exports every metric the Grafana dashboard in docs/ reads', async () => {
    const dashboard = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../docs/grafana-dashboard.json'), 'utf8'));
    const exprs: string[] = dashboard.panels.flatMap((p: any) => p.targets.map((t: any) => t.expr));
    const read = new Set(exprs.flatMap((e) => e.match(/\b(?:cds|process|nodejs)_[a-z0-9_]+/g) ?? []).map((n) => n.replace(/_bucket$/, '')));
    expect(read.size).toBeGreaterThan(10);
    // the embedded process runs every role; in distributed mode each process exports its own part
    const urls = svc.topology ? [...svc.topology.apis.map((a) => a.baseUrl), svc.topology.projector.baseUrl, svc.topology.worker.baseUrl] : [svc.baseUrl];
    const texts = await Promise.all(urls.map(async (u) => (await scrape(`${u}/metrics`, { authorization: `Bearer ${TOKEN}` })).text));
    const exported = new Set(
      texts
        .join('\n')
        .split('\n')
        .flatMap((l) => /^# TYPE (\S+) /.exec(l)?.[1] ?? []),
    );
    expect([...read].filter((n) => !exported.has(n))).toEqual([]);
  });

  it('asks for METRICS_TOKEN when it is set; API keys do not open it', async () => {
    expect((await scrape(`${svc.baseUrl}/metrics`)).status).toBe(401);
    expect((await scrape(`${svc.baseUrl}/metrics`, { authorization: `Bearer ${svc.adminKey}` })).status).toBe(401);
  });

  // Only the distributed deployment has these processes (embedded mode has one, whose
  // /metrics the tests above read): the test exists there, rather than being skipped here.
  if (e2eMode() === 'distributed')
    it('is served by the projector and the worker too (their probe ports)', async () => {
      const t = svc.topology!;
      const projector = await scrape(`${t.projector.baseUrl}/metrics`);
      expect(projector.status).toBe(200);
      expect(projector.text).toContain('cds_projector_lag_events');
      expect(projector.text).toContain('role="projector"');
      const worker = await scrape(`${t.worker.baseUrl}/metrics`);
      expect(worker.text).toContain('cds_webhook_deliveries_pending');
      expect(worker.text).toContain('role="worker"');
    });
});
