import * as net from 'node:net';
import { ApiClient, e2eMode, RunningService, startService } from '@cds/testing';
import { MediaServer } from './support/media-server';

/**
 * SIGTERM: a request in flight still gets its answer, new connections are refused, and
 * the process exits 0 within seconds. (Distributed mode: the api replica's own process.)
 */
describe('graceful shutdown on SIGTERM', () => {
  let svc: RunningService | undefined;
  const media = new MediaServer();
  afterAll(async () => {
    await svc?.stop('SIGKILL');
    await media.stop();
  });

  it('drains what is in flight, refuses what comes after, and exits 0', async () => {
    await media.start();
    svc = await startService({ env: { EGRESS_ALLOW_LOOPBACK: 'true', VIDEO_FETCH_TIMEOUT_MS: '2500' } });
    const direct = e2eMode() === 'distributed' ? svc.topology!.apis[0].baseUrl : svc.baseUrl;
    const api = new ApiClient(direct, svc.adminKey);
    // In flight for ~2.5 s: the video member waits on a server that trickles.
    const inFlight = api.post('/v1/check/multimodal', { video: `${media.baseUrl}/trickle`, policyId: 'default' });
    await new Promise((r) => setTimeout(r, 300));
    const proc = e2eMode() === 'distributed' ? svc.topology!.apis[0].proc! : svc.proc;
    const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
    const signalledAt = Date.now();
    proc.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    const after = await fetch(`${direct}/v1/policies`, { headers: { authorization: `Bearer ${svc.adminKey}` } }).then(
      (r) => r.status,
      (e: Error) => (e.cause as { code?: string })?.code ?? e.message,
    );
    expect(['ECONNREFUSED', 503]).toContain(after);
    const answered = await inFlight;
    expect(answered.status).toBe(422);
    expect(answered.body.code).toBe('MEDIA_FETCH_FAILED');
    expect(await exited).toBe(0);
    expect(Date.now() - signalledAt).toBeLessThan(10_000);
  });

  it('closes a connection stalled mid-body once SHUTDOWN_GRACE_MS has passed, and exits 0', async () => {
    await svc?.stop('SIGKILL');
    svc = await startService({ env: { SHUTDOWN_GRACE_MS: '1500' } });
    const target = new URL(e2eMode() === 'distributed' ? svc.topology!.apis[0].baseUrl : svc.baseUrl);
    // Declares 1 000 bytes and sends 15: the request never completes.
    const stalled = net.connect(Number(target.port), target.hostname);
    await new Promise((r) => stalled.once('connect', r));
    const closed = new Promise<void>((resolve) => stalled.once('close', () => resolve()));
    stalled.on('error', () => undefined);
    stalled.write(
      `POST /v1/check HTTP/1.1\r\nhost: ${target.host}\r\nauthorization: Bearer ${svc.adminKey}\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"content":"abc`,
    );
    await new Promise((r) => setTimeout(r, 300));
    const proc = e2eMode() === 'distributed' ? svc.topology!.apis[0].proc! : svc.proc;
    const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
    const signalledAt = Date.now();
    proc.kill('SIGTERM');
    await closed;
    // Held for the grace, not closed at once: the grace is what a request in flight gets.
    expect(Date.now() - signalledAt).toBeGreaterThanOrEqual(1400);
    expect(await exited).toBe(0);
    expect(Date.now() - signalledAt).toBeLessThan(10_000);
  });
});
