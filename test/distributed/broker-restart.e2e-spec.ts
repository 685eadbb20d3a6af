import { ApiClient, PrivateBroker, Topology } from '@cds/testing';
import { CheckLoad, expectLogAndReadModelsAgree, startTopology, waitUntil } from './distributed-support';

jest.setTimeout(240_000);

/** The broker crashes (SIGKILL) and comes back while checks are in flight. It is a
 * broker of this suite's own (PrivateBroker), so other suites are not disturbed. */
describe('distributed: broker restarted while checks are in flight', () => {
  let broker: PrivateBroker;
  let topology: Topology;
  afterAll(async () => {
    await topology?.stop();
    await broker?.destroy();
  });

  it('keeps every acknowledged decision, in the log and in the read models', async () => {
    broker = await PrivateBroker.start('broker-restart');
    topology = await startTopology('broker-restart', { kafkaBrokers: broker.brokers });
    const api = new ApiClient(topology.baseUrl, topology.options.adminKey);
    const load = new CheckLoad(api);
    try {
      await load.ackMore(200);
      await broker.kill();
      // While it is down every process says so on /ready, naming the event log.
      for (const p of [topology.projector, topology.worker, ...topology.apis]) {
        await waitUntil(
          `${p.name} /ready to report the event log down`,
          async () => {
            const r = await fetch(`${p.baseUrl}/ready`);
            return r.status === 503;
          },
          30_000,
        );
      }
      const api = await fetch(`${topology.apis[0].baseUrl}/ready`);
      expect({ status: api.status, body: await api.json() }).toMatchObject({ status: 503, body: { status: 'not_ready', eventLog: false } });
      await broker.start();
      await load.ackMore(200); // writes flow again after the restart
    } finally {
      await load.stop();
    }
    // Appends wait for the broker (bounded by their timeout) rather than failing.
    expect(load.failures).toEqual([]);
    await expectLogAndReadModelsAgree(topology, api, load.acknowledged, broker.brokers);
    // Readiness is back on every process.
    for (const p of [topology.projector, topology.worker, ...topology.apis]) await p.waitFor('/ready', 30_000);
  });
});
