/** A little HTTP server on 127.0.0.1 that serves what the image and video tests fetch:
 * files, redirects (also to the cloud metadata address), a trickle, a 404, and a file held
 * half-sent until the test lets it go. */
import * as http from 'node:http';
import { AddressInfo } from 'node:net';

export class MediaServer {
  private readonly files = new Map<string, { type: string; body: Buffer }>();
  private readonly held = new Map<string, { type: string; body: Buffer; requested: () => void; released: Promise<void> }>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private server!: http.Server;
  baseUrl = '';

  serve(path: string, body: Buffer, type = 'application/octet-stream'): string {
    this.files.set(path, { type, body });
    return this.baseUrl + path;
  }

  /** Serves `body` at `path` in two halves: the second only once `release()` is called.
   * `requested` resolves when the first half went out (a download is under way). */
  hold(path: string, body: Buffer, type = 'application/octet-stream'): { url: string; requested: Promise<void>; release: () => void } {
    let release!: () => void;
    let requested!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const asked = new Promise<void>((r) => (requested = r));
    this.held.set(path, { type, body, requested, released });
    return { url: this.baseUrl + path, requested: asked, release };
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
      const h = this.held.get(url);
      if (h) {
        const half = Math.floor(h.body.length / 2);
        res.writeHead(200, { 'content-type': h.type, 'content-length': h.body.length });
        res.write(h.body.subarray(0, half), () => h.requested());
        void h.released.then(() => res.end(h.body.subarray(half)));
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
