import * as net from 'node:net';

/** Ports handed out by this test process: a port is free when asked for but only bound
 * once its server starts, so the next ask could get it again (two processes of one
 * deployment on one port: the second fails to bind and the first answers for it). */
const handedOut = new Set<number>();

export async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const srv = net.createServer();
      srv.once('error', reject);
      srv.listen(0, '127.0.0.1', () => {
        const { port } = srv.address() as net.AddressInfo;
        srv.close(() => resolve(port));
      });
    });
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    return port;
  }
}
