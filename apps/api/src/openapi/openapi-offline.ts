import { NestFactory } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import { loadConfig } from '@cds/config';
import { AppModule } from '../app.module';
import { AdminKey } from '../keys/admin-key';
import { buildOpenApiDocument } from './openapi';

/**
 * The document GET /v1/openapi.json serves, without a running service: the app module in
 * Nest's preview mode (its graph only: no provider is built, nothing connects, loads a
 * model or listens), under the default configuration. The SDK's types are generated from
 * it (`npm run sdk:types`). The controllers, DTOs and answer schemas it is built from do
 * not depend on the configuration, nor on the HTTP adapter.
 */
export async function offlineOpenApiDocument(): Promise<OpenAPIObject> {
  const app = await NestFactory.create(AppModule.forRoot(loadConfig({}), new AdminKey('unused: preview mode')), {
    preview: true,
    logger: false,
    abortOnError: false,
  });
  try {
    return buildOpenApiDocument(app);
  } finally {
    await app.close();
  }
}
