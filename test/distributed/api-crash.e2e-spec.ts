import { ApiClient, Topology } from '@cds/testing';
import { CheckLoad, expectLogAndReadModelsAgree, startTopology } from './distributed-support';

jest.setTimeout(240_000);

/** One api replica SIGKILLed under load: the requests it held are cut (not
 * acknowledged), everything it acknowledged before is durable and readable through
 * the other replica. */
describe('distributed: api replica SIGKILLed under load', () => {
  let topology: Topology;
  afterAll(() => topology?.stop());

  it('keeps every decision the killed replica acknowledged', async () => {
    topology = await startTopology('api-kill');
    const api = new ApiClient(topology.baseUrl, topology.options.adminKey);
    const load = new CheckLoad(api, 16);
    const [killed, survivor] = topology.apis;
    try {
      await load.ackMore(300);
      await killed.stop('SIGKILL');
      await load.ackMore(100); // the survivor keeps answering
    } finally {
      await load.stop();
    }
    expect(load.failures.length).toBeGreaterThan(0); // the kill cut requests in flight
    // Read through the survivor alone, then through both once the replica is back.
    await expectLogAndReadModelsAgree(topology, new ApiClient(survivor.baseUrl, topology.options.adminKey), load.acknowledged);
    await killed.start('/ready');
    await expectLogAndReadModelsAgree(topology, api, load.acknowledged);
  });
});
