/**
 * A minimal webhook receiver: verifies `x-service-signature` on the raw body with the
 * shipped verifier, answers 401 when it fails and 200 when it holds (receiver-handler.ts).
 */
import { createServer } from 'node:http';
import { deliveryHandler } from './receiver-handler';

// Comma-separated while rotating: a delivery signed with either secret is accepted.
const secrets = (process.env.WEBHOOK_SECRET ?? '').split(',').filter(Boolean);
const port = Number(process.env.PORT ?? 4000);

if (secrets.length === 0) {
  console.error('Set WEBHOOK_SECRET to the secret returned by POST /v1/webhooks');
  process.exit(1);
}

createServer(deliveryHandler(secrets)).listen(port, '127.0.0.1', () => console.log(`webhook receiver on http://127.0.0.1:${port}`));
