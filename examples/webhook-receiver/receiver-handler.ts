import type { IncomingMessage, ServerResponse } from 'node:http';
import { SIGNATURE_HEADER, verifySignature, WebhookSignatureError } from '@cds/webhooks';

export const MAX_BODY_BYTES = 1024 * 1024;

interface Log {
  log(message: string): void;
  warn(message: string): void;
}

/**
 * The receiver's request handler: verifies `x-service-signature` on the raw body with any
 * of `secrets` (several while rotating); answers 401 when it fails, 200 when it holds,
 * 413 once the body passes `maxBodyBytes` (the rest of it is dropped, never answered again).
 */
export function deliveryHandler(secrets: string[], maxBodyBytes = MAX_BODY_BYTES, log: Log = console) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('error', () => undefined); // a client gone mid-body: nothing to answer
    req.on('data', (chunk: Buffer) => {
      if (tooLarge) return; // answered already: later chunks are dropped
      size += chunk.length;
      if (size <= maxBodyBytes) return void chunks.push(chunk);
      tooLarge = true;
      chunks.length = 0;
      res.writeHead(413, { connection: 'close' }).end(() => req.destroy());
    });
    req.on('end', () => {
      if (tooLarge || res.headersSent) return;
      // Verify the bytes as received: re-serialised JSON would not match the signature.
      const rawBody = Buffer.concat(chunks);
      try {
        verifySignature({ header: req.headers[SIGNATURE_HEADER], rawBody, secret: secrets });
      } catch (err) {
        const reason = err instanceof WebhookSignatureError ? err.reason : 'unverifiable';
        log.warn(`rejected: ${reason}`);
        res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'invalid signature', reason }));
        return;
      }
      let event: { id?: string; type?: string; data?: { id?: string } };
      try {
        event = JSON.parse(rawBody.toString('utf8'));
      } catch {
        res.writeHead(400).end();
        return;
      }
      log.log(`received ${event.type} ${event.id} about ${event.data?.id}`);
      res.writeHead(200).end();
    });
  };
}
