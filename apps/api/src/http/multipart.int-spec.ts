/**
 * The multipart seam over real HTTP, on both adapters: a test-only Nest module (controllers
 * with @MultipartBody() that stream the file into an FsBlobStore) booted with createHttpApp
 * and app.listen(0), sent real multipart bodies with fetch + FormData and by hand.
 *
 * Nest 12 is ESM-only and jest on Node 20 cannot load it (the e2e suites spawn the built
 * service for that reason). So this file plays two parts: under jest it is the test; run by
 * `node` with MULTIPART_SPEC_SERVER set (TypeScript compiled on require by @swc/core with the
 * repository's .swcrc) it is the server, one child process per adapter.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import type { MultipartForm } from './multipart';

const MiB = 1024 * 1024;
/** The video route's file limit (VIDEO_MAX_BYTES in the test config). */
const VIDEO_LIMIT = 100 * MiB;
/** MAX_BODY_BYTES in the test config: the file limit of any other multipart route. */
const MAX_BODY = 1 * MiB;
/** What the blob store takes on /v1/test/store-cap: below the seam's limit, so the store refuses first. */
const STORE_CAP = 256 * 1024;

if (process.env.MULTIPART_SPEC_SERVER) {
  serve().catch((err) => {
    console.error(err);
    process.exit(1);
  });
} else {
  tests();
}

async function serve(): Promise<void> {
  // Required here, not imported: jest must never load Nest.
  require('reflect-metadata');
  const { Body, Controller, HttpCode, Module, Post } = require('@nestjs/common');
  const { APP_FILTER, APP_PIPE } = require('@nestjs/core');
  const { createHttpApp } = require('./http-adapter');
  const { AllExceptionsFilter } = require('./all-exceptions.filter');
  const { ObjectBodyPipe, validationPipe } = require('./validation');
  const { MultipartBody } = require('./multipart');
  const { FsBlobStore } = require('@cds/blob-store');
  const store = new FsBlobStore(process.env.MULTIPART_SPEC_DATA!);

  async function storeForm(form: MultipartForm, maxBytes: number) {
    const fields: Record<string, string> = {};
    const order: string[] = [];
    let file: Record<string, unknown> | null = null;
    for await (const part of form.parts()) {
      order.push(`${part.kind}:${part.name}`);
      if (part.kind === 'field') fields[part.name] = part.value;
      else {
        const stored = await store.putStream('tenant-a', part.stream, { maxBytes, tooLargeCode: 'STORE_CAP_EXCEEDED' });
        file = { name: part.name, filename: part.filename, mimeType: part.mimeType, sha256: stored.sha256, bytes: stored.bytes };
      }
    }
    return { fields, order, file };
  }

  @Controller('v1/video')
  class VideoUploadController {
    @Post('upload')
    @HttpCode(200)
    upload(@MultipartBody() form: MultipartForm) {
      return storeForm(form, 200 * MiB);
    }
  }

  @Controller('v1/test')
  class TestController {
    @Post('store-cap')
    @HttpCode(200)
    storeCap(@MultipartBody() form: MultipartForm) {
      return storeForm(form, STORE_CAP);
    }

    @Post('any')
    @HttpCode(200)
    any(@MultipartBody() form: MultipartForm) {
      return storeForm(form, 200 * MiB);
    }

    /** Answers with the first part and leaves the rest of the form unread. */
    @Post('first')
    @HttpCode(200)
    async first(@MultipartBody() form: MultipartForm) {
      for await (const part of form.parts()) return { first: part.name };
      return { first: null };
    }

    @Post('json')
    @HttpCode(200)
    json(@Body() body: object) {
      return { body };
    }
  }

  @Module({
    controllers: [VideoUploadController, TestController],
    providers: [
      { provide: APP_FILTER, useClass: AllExceptionsFilter },
      { provide: APP_PIPE, useClass: ObjectBodyPipe },
      { provide: APP_PIPE, useFactory: validationPipe },
    ],
  })
  class MultipartSpecModule {}

  const config = { HTTP_ADAPTER: process.env.MULTIPART_SPEC_SERVER, MAX_BODY_BYTES: MAX_BODY, MAX_IMAGE_BYTES: 20 * MiB, VIDEO_MAX_BYTES: VIDEO_LIMIT };
  const app = await createHttpApp(MultipartSpecModule, config as any, false);
  await app.listen(0, '127.0.0.1');
  console.log(`LISTENING ${app.getHttpServer().address().port}`);
}

/** Compiles .ts on require with the repository's .swcrc (decorators and their metadata, for
 * Nest) and resolves the @cds/<lib> aliases; then loads this file as the server. */
const CHILD_BOOT = `
const fs = require('fs'), path = require('path'), Module = require('module');
const { transformSync } = require('@swc/core');
const root = process.env.MULTIPART_SPEC_ROOT;
const { $schema, ...swcrc } = JSON.parse(fs.readFileSync(path.join(root, '.swcrc'), 'utf8'));
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const m = /^@cds\\/([^/]+)(\\/.*)?$/.exec(request);
  return resolve.call(this, m ? path.join(root, 'libs', m[1], 'src', m[2] || '') : request, ...rest);
};
require.extensions['.ts'] = function (module, filename) {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), { ...swcrc, filename, swcrc: false, sourceMaps: 'inline' });
  module._compile(code, filename);
};
require(process.env.MULTIPART_SPEC_FILE);
`;

function tests(): void {
  const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
  const filesUnder = (dir: string) =>
    fs
      .readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => e.name);

  async function startServer(adapter: 'fastify' | 'express', dataDir: string): Promise<{ proc: ChildProcess; port: number; output: () => string }> {
    const proc = spawn(process.execPath, ['-e', CHILD_BOOT], {
      cwd: path.resolve(__dirname, '../../../..'),
      env: {
        ...process.env,
        MULTIPART_SPEC_SERVER: adapter,
        MULTIPART_SPEC_DATA: dataDir,
        MULTIPART_SPEC_FILE: __filename,
        MULTIPART_SPEC_ROOT: path.resolve(__dirname, '../../../..'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    proc.stderr!.on('data', (d) => (out += d));
    const port = await new Promise<number>((resolve, reject) => {
      proc.stdout!.on('data', (d) => {
        out += d;
        const m = /LISTENING (\d+)/.exec(out);
        if (m) resolve(Number(m[1]));
      });
      proc.once('exit', (code) => reject(new Error(`the ${adapter} server exited (${code}) before listening:\n${out}`)));
    });
    return { proc, port, output: () => out };
  }

  describe.each(['fastify', 'express'] as const)('multipart seam on %s', (adapter) => {
    let server: { proc: ChildProcess; port: number; output: () => string };
    let dataDir: string;
    const url = (p: string) => `http://127.0.0.1:${server.port}${p}`;

    beforeAll(async () => {
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `cds-multipart-${adapter}-`));
      server = await startServer(adapter, dataDir);
    });
    afterAll(async () => {
      if (server?.proc.exitCode === null) {
        const exited = new Promise((r) => server.proc.once('exit', r));
        server.proc.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    });
    afterEach(() => {
      // Whatever a test did, no half-written upload is left behind.
      expect(filesUnder(dataDir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    });

    async function send(p: string, body: FormData | string | Buffer, headers: Record<string, string> = {}) {
      const res = await fetch(url(p), { method: 'POST', body, headers });
      const text = await res.text();
      let json: any;
      try {
        json = JSON.parse(text);
      } catch {
        json = text;
      }
      return { status: res.status, body: json };
    }

    function form(entries: Array<[string, string] | [string, Buffer, string, string?]>): FormData {
      const fd = new FormData();
      for (const [name, value, filename, type] of entries) {
        if (typeof value === 'string') fd.append(name, value);
        else fd.append(name, new Blob([value], { type: type ?? 'application/octet-stream' }), filename);
      }
      return fd;
    }

    it('streams the file into the blob store and hands over the fields, in the order sent', async () => {
      const video = Buffer.alloc(5 * MiB + 3, 0x5a);
      const extraction = JSON.stringify({ frameInterval: 2, maxFrames: 10 });
      const r = await send(
        '/v1/video/upload',
        form([
          ['policyId', 'default'],
          ['video', video, 'clip.mp4', 'video/mp4'],
          ['webhookUrl', 'https://example.com/hook'],
          ['extractionStrategy', extraction],
        ]),
      );
      expect(r).toEqual({
        status: 200,
        body: {
          fields: { policyId: 'default', webhookUrl: 'https://example.com/hook', extractionStrategy: extraction },
          order: ['field:policyId', 'file:video', 'field:webhookUrl', 'field:extractionStrategy'],
          file: { name: 'video', filename: 'clip.mp4', mimeType: 'video/mp4', sha256: sha256(video), bytes: video.length },
        },
      });
      // Past MAX_BODY_BYTES (1 MiB): the JSON body limit does not apply to the upload.
      expect(filesUnder(dataDir)).toContain(sha256(video));
    });

    it('keeps unicode in fields and file names, and takes a file of exactly the limit', async () => {
      const exact = Buffer.alloc(MAX_BODY, 1);
      const r = await send(
        '/v1/test/any',
        form([
          ['language', 'français ✓'],
          ['video', exact, 'vidéo été.mp4', 'video/mp4'],
        ]),
      );
      expect(r.status).toBe(200);
      expect(r.body.fields).toEqual({ language: 'français ✓' });
      expect(r.body.file).toMatchObject({ filename: 'vidéo été.mp4', bytes: MAX_BODY, sha256: sha256(exact) });
    });

    it('refuses a body that is not multipart/form-data with 400 INVALID_BODY', async () => {
      const r = await send('/v1/video/upload', JSON.stringify({ policyId: 'default' }), { 'content-type': 'application/json' });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ error: 'Malformed request body', code: 'INVALID_BODY' });
      expect(r.body.details).toContain('expected multipart/form-data');
      const none = await fetch(url('/v1/video/upload'), { method: 'POST' });
      expect(none.status).toBe(400);
      expect(((await none.json()) as { code: string }).code).toBe('INVALID_BODY');
    });

    it('refuses a truncated, an empty or a boundary-less multipart body with 400', async () => {
      const head =
        '--XyZ\r\nContent-Disposition: form-data; name="policyId"\r\n\r\ndefault\r\n' +
        '--XyZ\r\nContent-Disposition: form-data; name="video"; filename="a.mp4"\r\nContent-Type: video/mp4\r\n\r\n';
      const truncated = Buffer.concat([Buffer.from(head), Buffer.alloc(200 * 1024, 7)]);
      for (const [body, type] of [
        [truncated, 'multipart/form-data; boundary=XyZ'],
        [Buffer.from(head.slice(0, 40)), 'multipart/form-data; boundary=XyZ'],
        [Buffer.alloc(0), 'multipart/form-data; boundary=XyZ'],
        [Buffer.from(head + 'abc\r\n--XyZ--\r\n'), 'multipart/form-data'],
      ] as const) {
        const r = await send('/v1/video/upload', body, { 'content-type': type });
        expect([type, body.length, r.status, r.body.code]).toEqual([type, body.length, 400, 'INVALID_BODY']);
      }
      // The same by hand, well-formed, is taken.
      const ok = await send('/v1/video/upload', Buffer.from(head + 'abc\r\n--XyZ--\r\n'), { 'content-type': 'multipart/form-data; boundary=XyZ' });
      expect(ok.status).toBe(200);
      expect(ok.body.file).toMatchObject({ filename: 'a.mp4', bytes: 3 });
    });

    it('refuses a 101 MB video with 413 VIDEO_TOO_LARGE; the client receives the body and the connection lives on', async () => {
      const r = await send(
        '/v1/video/upload',
        form([
          ['policyId', 'default'],
          ['video', Buffer.alloc(101 * MiB, 1), 'big.mp4', 'video/mp4'],
        ]),
      );
      expect(r.status).toBe(413);
      expect(r.body).toEqual({ error: 'Uploaded file too large', code: 'VIDEO_TOO_LARGE', details: `the file exceeds the limit of ${VIDEO_LIMIT} bytes` });

      // Over one keep-alive socket: the 413 arrives whole, the upload is read to its end
      // (no reset under the client), and the next request reuses the socket.
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const boundary = 'b0undary';
        const big = Buffer.concat([
          Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="video"; filename="big.mp4"\r\nContent-Type: video/mp4\r\n\r\n`),
          Buffer.alloc(101 * MiB, 2),
          Buffer.from(`\r\n--${boundary}--\r\n`),
        ]);
        const first = await rawPost(agent, '/v1/video/upload', big, `multipart/form-data; boundary=${boundary}`);
        expect(first.error).toBeNull();
        expect(first.status).toBe(413);
        expect(JSON.parse(first.body).code).toBe('VIDEO_TOO_LARGE');
        const small = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="policyId"\r\n\r\nx\r\n--${boundary}--\r\n`);
        const second = await rawPost(agent, '/v1/video/upload', small, `multipart/form-data; boundary=${boundary}`);
        expect(second).toMatchObject({ error: null, status: 200, reusedSocket: true });
      } finally {
        agent.destroy();
      }
    });

    it('refuses while the upload streams: the 413 arrives before the client has sent the rest', async () => {
      const boundary = 'b0undary';
      const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="video"; filename="big.mp4"\r\n\r\n`);
      const declared = head.length + 150 * MiB;
      const req = http.request(url('/v1/video/upload'), {
        method: 'POST',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': declared },
      });
      req.on('error', () => {});
      const answered = new Promise<{ status: number; body: string }>((resolve) => {
        req.on('response', (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode!, body: text }));
        });
      });
      // 101 MiB of the declared 150, then nothing more: only a refusal made while
      // streaming can answer this request.
      req.write(head);
      const chunk = Buffer.alloc(MiB, 6);
      for (let i = 0; i < 101; i++) if (!req.write(chunk)) await new Promise((r) => req.once('drain', r));
      const r = await answered;
      req.destroy();
      expect(r.status).toBe(413);
      expect(JSON.parse(r.body).code).toBe('VIDEO_TOO_LARGE');
    });

    it('a client that goes away mid-upload leaves no temporary file, and the server carries on', async () => {
      const until = async (cond: () => boolean) => {
        while (!cond()) await new Promise((r) => setImmediate(r));
      };
      const tmpFiles = () => filesUnder(dataDir).filter((n) => n.endsWith('.tmp'));
      const boundary = 'b0undary';
      const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="video"; filename="a.mp4"\r\n\r\n`);
      const req = http.request(url('/v1/video/upload'), {
        method: 'POST',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + 50 * MiB },
      });
      req.on('error', () => {});
      req.write(head);
      req.write(Buffer.alloc(4 * MiB, 8));
      await until(() => tmpFiles().length === 1);
      req.destroy();
      await until(() => tmpFiles().length === 0);
      expect((await send('/v1/video/upload', form([['policyId', 'after']]))).body.fields).toEqual({ policyId: 'after' });
    });

    function rawPost(agent: http.Agent, p: string, body: Buffer, type: string) {
      return new Promise<{ status: number; body: string; error: string | null; reusedSocket: boolean }>((resolve) => {
        let status = 0;
        let text = '';
        const req = http.request(url(p), { method: 'POST', agent, headers: { 'content-type': type, 'content-length': body.length } }, (res) => {
          status = res.statusCode!;
          res.setEncoding('utf8');
          res.on('data', (d) => (text += d));
          res.on('end', () => {
            // The answer may come before the upload is through: settle once both are.
            if (req.writableFinished) resolve({ status, body: text, error: null, reusedSocket: req.reusedSocket });
            else req.once('finish', () => resolve({ status, body: text, error: null, reusedSocket: req.reusedSocket }));
          });
        });
        req.on('error', (e) => resolve({ status, body: text, error: (e as NodeJS.ErrnoException).code ?? e.message, reusedSocket: req.reusedSocket }));
        req.end(body);
      });
    }

    it('a route the store refuses first (putStream past its cap) answers its 413, and the rest of the body is thrown away', async () => {
      const r = await send(
        '/v1/test/store-cap',
        form([
          ['video', Buffer.alloc(STORE_CAP + 1, 3), 'a.bin'],
          ['after', 'x'],
        ]),
      );
      expect(r.status).toBe(413);
      expect(r.body.code).toBe('STORE_CAP_EXCEEDED');
      expect(r.body.details).toContain(String(STORE_CAP));
      const ok = await send('/v1/test/store-cap', form([['video', Buffer.alloc(STORE_CAP, 3), 'a.bin']]));
      expect(ok.status).toBe(200);
      expect(ok.body.file.bytes).toBe(STORE_CAP);
    });

    it('any other multipart route takes one file of MAX_BODY_BYTES: 413 PAYLOAD_TOO_LARGE past it', async () => {
      const r = await send('/v1/test/any', form([['video', Buffer.alloc(MAX_BODY + 1, 4), 'a.bin']]));
      expect(r.status).toBe(413);
      expect(r.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', details: `the file exceeds the limit of ${MAX_BODY} bytes` });
    });

    it('applies the field limits: 20 fields of 64 KiB, one file', async () => {
      const many = Array.from({ length: 21 }, (_, i) => [`f${i}`, 'v'] as [string, string]);
      const tooMany = await send('/v1/video/upload', form(many));
      expect(tooMany.status).toBe(413);
      expect(tooMany.body.code).toBe('TOO_MANY_FIELDS');
      expect((await send('/v1/video/upload', form(many.slice(1)))).status).toBe(200);

      const long = await send('/v1/video/upload', form([['policyId', 'p'.repeat(64 * 1024 + 1)]]));
      expect(long.status).toBe(413);
      expect(long.body.code).toBe('FIELD_TOO_LARGE');
      const exact = await send('/v1/video/upload', form([['policyId', 'p'.repeat(64 * 1024)]]));
      expect(exact.status).toBe(200);
      expect(exact.body.fields.policyId).toHaveLength(64 * 1024);

      const twoFiles = await send(
        '/v1/video/upload',
        form([
          ['video', Buffer.from('one'), 'a.mp4'],
          ['video2', Buffer.from('two'), 'b.mp4'],
        ]),
      );
      expect(twoFiles.status).toBe(413);
      expect(twoFiles.body.code).toBe('TOO_MANY_FILES');

      const proto = await send('/v1/video/upload', form([['__proto__', 'x']]));
      expect(proto.status).toBe(400);
      expect(proto.body.code).toBe('INVALID_BODY');
    });

    it('a consumer that leaves after the first part answers at once; the unread file is discarded', async () => {
      const r = await send(
        '/v1/test/first',
        form([
          ['policyId', 'default'],
          ['video', Buffer.alloc(20 * MiB, 5), 'a.mp4'],
        ]),
      );
      expect(r).toEqual({ status: 200, body: { first: 'policyId' } });
      expect((await send('/v1/test/first', form([['a', '1']]))).body).toEqual({ first: 'a' });
    });

    it('JSON routes still read JSON, and never take a multipart body for JSON', async () => {
      expect(await send('/v1/test/json', JSON.stringify({ a: 1 }), { 'content-type': 'application/json' })).toEqual({ status: 200, body: { body: { a: 1 } } });
      expect(await send('/v1/test/json', JSON.stringify({ a: 2 }), { 'content-type': 'text/plain' })).toEqual({ status: 200, body: { body: { a: 2 } } });
      const r = await send('/v1/test/json', form([['a', '1']]));
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('INVALID_BODY');
    });
  });
}
