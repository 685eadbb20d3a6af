/**
 * A minimal webhook receiver: verifies `x-service-signature` on the raw body with the
 * shipped verifier, answers 401 when it fails and 200 when it holds.
 */
import { createServer } from 'node:http';
import { SIGNATURE_HEADER, verifySignature, WebhookSignatureError } from '@cds/webhooks';

const MAX_BODY_BYTES = 1024 * 1024;
// Comma-separated while rotating: a delivery signed with either secret is accepted.
const secrets = (process.env.WEBHOOK_SECRET ?? '').split(',').filter(Boolean);
const port = Number(process.env.PORT ?? 4000);

if (secrets.length === 0) {
  console.error('Set WEBHOOK_SECRET to the secret returned by POST /v1/webhooks');
  process.exit(1);
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) res.writeHead(413).end(() => req.destroy());
    else chunks.push(chunk);
  });
  req.on('end', () => {
    if (res.headersSent) return;
    // Verify the bytes as received: re-serialised JSON would not match the signature.
    const rawBody = Buffer.concat(chunks);
    try {
      verifySignature({ header: req.headers[SIGNATURE_HEADER], rawBody, secret: secrets });
    } catch (err) {
      const reason = err instanceof WebhookSignatureError ? err.reason : 'unverifiable';
      console.warn(`rejected: ${reason}`);
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'invalid signature', reason }));
      return;
    }
    const event = JSON.parse(rawBody.toString('utf8')) as { id: string; type: string; data: { id: string } };
    console.log(`received ${event.type} ${event.id} about ${event.data.id}`);
    res.writeHead(200).end();
  });
});

server.listen(port, '127.0.0.1', () => console.log(`webhook receiver on http://127.0.0.1:${port}`));
