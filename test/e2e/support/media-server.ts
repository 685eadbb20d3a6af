/** A little HTTP server on 127.0.0.1 that serves what the image tests fetch: images,
 * redirects (also to the cloud metadata address), a trickle and a 404. */
import * as http from 'node:http';
import { AddressInfo } from 'node:net';

export class MediaServer {
  private readonly files = new Map<string, { type: string; body: Buffer }>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private server!: http.Server;
  baseUrl = '';

  serve(path: string, body: Buffer, type = 'application/octet-stream'): string {
    this.files.set(path, { type, body });
    return this.baseUrl + path;
  }

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      const url = req.url ?? '/';
      if (url.startsWith('/redirect?to=')) {
        res.writeHead(302, { location: decodeURIComponent(url.slice('/redirect?to='.length)) });
        return res.end();
      }
      if (url === '/trickle') {
        res.writeHead(200, { 'content-type': 'image/png' });
        const t = setInterval(() => res.write(Buffer.from([0x89])), 1000);
        this.timers.add(t);
        res.on('close', () => {
          clearInterval(t);
          this.timers.delete(t);
        });
        return;
      }
      const f = this.files.get(url);
      if (!f) {
        res.writeHead(404, { 'content-type': 'text/plain' });
        return res.end('not found');
      }
      res.writeHead(200, { 'content-type': f.type, 'content-length': f.body.length });
      res.end(f.body);
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
