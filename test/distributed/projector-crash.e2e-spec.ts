import { ApiClient, Topology } from '@cds/testing';
import { CheckLoad, expectLogAndReadModelsAgree, startTopology } from './distributed-support';

jest.setTimeout(240_000);

/** The projector SIGKILLed while checks stream in, then restarted: it resumes from its
 * group's committed offsets, and what it re-applies changes nothing. */
describe('distributed: projector SIGKILLed mid-stream', () => {
  let topology: Topology;
  afterAll(() => topology?.stop());

  it('leaves no gap and no duplicate in the read models once restarted', async () => {
    // Writes are acknowledged once the broker has them and never wait for the projector,
    // so the load keeps flowing while it is down; a read waits at most 1 s for it.
    topology = await startTopology('projector-kill', { env: { PROJECTION_WAIT_MS: '1000' } });
    const api = new ApiClient(topology.baseUrl, topology.options.adminKey);
    const load = new CheckLoad(api);
    try {
      await load.ackMore(200);
      await topology.projector.stop('SIGKILL');
      await load.ackMore(50); // acknowledged while nothing projects them
      await topology.projector.start('/ready');
      await load.ackMore(100);
    } finally {
      await load.stop();
    }
    expect(load.failures).toEqual([]);
    await expectLogAndReadModelsAgree(topology, api, load.acknowledged);
  });
});
