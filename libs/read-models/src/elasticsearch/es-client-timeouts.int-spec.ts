import { errors } from '@elastic/elasticsearch';
import * as http from 'node:http';
import { AddressInfo } from 'node:net';
import { newClient } from './elasticsearch-read-models.adapter';
import { ADMIN_REQUEST } from './es-generations';

/**
 * The client's timeouts against a real HTTP server that answers as Elasticsearch does, only
 * slowly (a loaded master takes seconds to create an index): index management waits with its
 * own patience (ADMIN_REQUEST), a document request still times out at requestTimeoutMs.
 */
describe('Elasticsearch client timeouts (a slow node)', () => {
  const DELAY_MS = 1_500;
  let server: http.Server;
  let url: string;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      req.resume();
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json', 'x-elastic-product': 'Elasticsearch' });
        res.end(JSON.stringify({ acknowledged: true, shards_acknowledged: true, index: 'slow' }));
      }, DELAY_MS);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('lets index management wait past the document timeout', async () => {
    const client = newClient({ node: url, requestTimeoutMs: 300 });
    try {
      await expect(client.indices.create({ index: 'slow' }, ADMIN_REQUEST)).resolves.toMatchObject({ acknowledged: true });
    } finally {
      await client.close();
    }
  });

  it('still times a document request out at requestTimeoutMs', async () => {
    const client = newClient({ node: url, requestTimeoutMs: 300 });
    try {
      // (the server would answer it too, with a 200, after DELAY_MS)
      await expect(client.get({ index: 'slow', id: 'x' })).rejects.toBeInstanceOf(errors.TimeoutError);
    } finally {
      await client.close();
    }
  });
});
