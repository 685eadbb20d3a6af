import 'reflect-metadata';
import { offlineOpenApiDocument } from '../../apps/api/src/openapi/openapi-offline';

/**
 * `npm run -s openapi:json > file.json`: the document GET /v1/openapi.json serves, built
 * without a running service (openapi-offline.ts), to compare two versions of it or to
 * hand it to a client generator.
 */
offlineOpenApiDocument()
  .then((doc) => process.stdout.write(JSON.stringify(doc, null, 2) + '\n'))
  .catch((err) => {
    console.error(err);
    process.exit(1);
  });
