import * as net from 'node:net';
import { ApiClient, infraEnv, Topology } from '@cds/testing';
import { startTopology, waitUntil } from './distributed-support';

jest.setTimeout(180_000);

/**
 * A TCP gate in front of a real server: closed (nothing listens on its port) until
 * opened, then it forwards every connection. Stands for a broker or a node that is not
 * up yet when the deployment starts.
 */
class Gate {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  private constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}

  static async closed(target: string): Promise<Gate> {
    const url = new URL(target.includes('://') ? target : `tcp://${target}`);
    const probe = net.createServer();
    const port = await new Promise<number>((resolve) => probe.listen(0, '127.0.0.1', () => resolve((probe.address() as net.AddressInfo).port)));
    await new Promise((r) => probe.close(r));
    return new Gate(port, { host: url.hostname, port: Number(url.port) });
  }

  open(): Promise<void> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.target.port, this.target.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    return new Promise((resolve) => this.server!.listen(this.port, '127.0.0.1', () => resolve()));
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    if (this.server) await new Promise((r) => this.server!.close(r));
  }
}

async function readiness(baseUrl: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const r = await fetch(`${baseUrl}/ready`);
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

/** Kafka and Elasticsearch both away when every process starts: they come up, say they
 * are not ready (naming what is missing), refuse writes with a clear 503, and serve
 * once the servers are reachable, without a restart. */
describe('distributed: Kafka and Elasticsearch away at start', () => {
  let topology: Topology | undefined;
  let kafka: Gate;
  let es: Gate;
  afterAll(async () => {
    await topology?.stop();
    await kafka?.close();
    await es?.close();
  });

  it('starts, reports not ready, refuses with 503, then serves once both are up', async () => {
    kafka = await Gate.closed(infraEnv().KAFKA_BROKERS.split(',')[0]);
    es = await Gate.closed(infraEnv().ELASTICSEARCH_URL);
    topology = await startTopology('away-at-start', {
      apiReplicas: 1,
      startProbe: '/health',
      kafkaBrokers: `127.0.0.1:${kafka.port}`,
      elasticsearchUrl: `http://127.0.0.1:${es.port}`,
      env: { PROJECTION_WAIT_MS: '1000' },
    });
    const [api] = topology.apis;
    const apiReady = await readiness(api.baseUrl);
    expect(apiReady).toEqual({
      status: 503,
      // the text model loads in a fraction of a second, without the servers
      body: {
        status: 'not_ready',
        eventLog: false,
        readModels: false,
        localTextModel: { model: 'embedding', state: expect.stringMatching(/^(loading|ready)$/) },
        providers: { local: 'closed' },
      },
    });
    for (const p of [topology.projector, topology.worker]) expect((await readiness(p.baseUrl)).status).toBe(503);

    const client = new ApiClient(topology.baseUrl, topology.options.adminKey);
    const refused = await client.post('/v1/check', { content: 'hello there', policyId: 'default' });
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ code: 'READ_MODELS_UNAVAILABLE', error: expect.any(String), details: expect.stringContaining('Elasticsearch') });

    await Promise.all([kafka.open(), es.open()]);
    for (const p of [topology.projector, topology.worker, api]) {
      await waitUntil(`${p.name} ready`, async () => (await readiness(p.baseUrl)).status === 200, 90_000);
    }
    const checked = await client.post('/v1/check', { content: 'hello again', policyId: 'default' });
    expect(checked.status).toBe(200);
    const read = await client.get(`/v1/decisions/${checked.body.decisionId}`);
    expect(read.status).toBe(200);
    expect(read.body.content).toBe('hello again');
  });
});
