'use strict';
/* The round-robin proxy's server, as its own process (see round-robin-proxy.ts): a test
 * that blocks its event loop (execFileSync of a curl through the proxy) must not block
 * the proxy too.  node round-robin-proxy-server.js <listen port|0> <upstream port>...
 * Prints {"port": n} once listening. */
const http = require('node:http');

const [listen, ...upstreams] = process.argv.slice(2).map(Number);
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
let next = 0;

const server = http.createServer((req, res) => {
  const port = upstreams[next++ % upstreams.length];
  // A dropped upstream drops the client's connection too, as a TCP load balancer would.
  const drop = () => req.socket.destroy();
  let answered = false;
  const up = http.request({ host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers, agent }, (upRes) => {
    answered = true;
    if (!req.complete) closeAfterBody(req, res);
    res.writeHead(upRes.statusCode || 502, upRes.statusMessage, upRes.rawHeaders);
    upRes.pipe(res);
    upRes.once('error', drop);
    upRes.once('aborted', drop);
    // Answered whole before the body was all sent (a 413): the upstream connection is
    // closed rather than fed the rest, as a load balancer does with a connection it cannot
    // reuse. Fed on, it could stall for good: once its answer has ended, Node's client no
    // longer passes the socket's 'drain' on to the request, the pipe waits for it, and the
    // upstream waits (until its own timeout, 72 s on fastify) for a body that never comes,
    // holding its graceful shutdown that long.
    upRes.once('end', () => {
      if (!req.complete) dropUpstream();
    });
  });
  // The rest of the client's body is read and thrown away, so the client's connection
  // stays in step until it closes (closeAfterBody).
  const dropUpstream = () => {
    req.unpipe(up);
    req.resume();
    up.destroy();
  };
  // An upstream that answers before reading the whole body may close its side of the
  // request itself: the answer still goes to the client.
  up.on('error', () => {
    if (!answered) return drop();
    dropUpstream();
  });
  // A client that goes away mid-request takes the upstream request with it.
  req.once('close', () => {
    if (!req.complete) up.destroy();
  });
  req.pipe(up);
});
/**
 * Answered before the client finished sending (a 413): the connection to the client
 * closes after the answer, as a load balancer does, instead of being reused while the
 * rest of the body may still be in flight. It closes lingering, as nginx does: the
 * answer goes out and the write side ends, but the socket stays open for reading until
 * the client's body has arrived (or 30 s have passed). Closed at once, the rest of the
 * body would hit a closed socket, the kernel would reset the connection, and the client
 * could lose the answer in the reset (EPIPE on its write).
 */
function closeAfterBody(req, res) {
  res.shouldKeepAlive = false;
  const socket = req.socket;
  // Node's server closes a connection that will not be kept alive with destroySoon()
  // once the answer is written.
  socket.destroySoon = function lingeringClose() {
    if (this.writable) this.end();
    const close = () => {
      clearTimeout(timer);
      this.destroy();
    };
    const timer = setTimeout(close, 30_000);
    if (req.complete) return close();
    req.once('end', close);
    req.once('close', close);
  };
}

// Idle keep-alive connections live as long as on the api itself (fastify: 72 s). With
// Node's default 5 s, a test that blocks its own event loop for a few seconds (building a
// 50 MB body) keeps its client from retiring an idle socket in time (undici retires them
// 1 s before the server's hint), reuses one the proxy has just closed, and gets ECONNRESET.
server.keepAliveTimeout = 72_000;
server.headersTimeout = 75_000;
server.listen(listen, '127.0.0.1', () => process.stdout.write(JSON.stringify({ port: server.address().port }) + '\n'));
process.on('SIGTERM', () => process.exit(0));
