import 'reflect-metadata';
import { Body, Controller, HttpCode, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { ExpressAdapter } from '@nestjs/platform-express';
import { availableParallelism } from 'node:os';
import { LocalTextRuntime } from '@cds/providers';

/** The benchmark baseline: a bare NestJS endpoint on the same adapter that parses a
 * JSON body and answers a fixed response of the size of a Check decision. With
 * BARE_SCORER=embedding it first scores the body's `content` with the text embedding model
 * (the service's own LocalTextRuntime, TEXT_WORKERS threads): the scorer's cost alone. */
const RESPONSE = JSON.parse(process.env.BARE_RESPONSE ?? '{}');
const SCORER =
  process.env.BARE_SCORER === 'embedding'
    ? new LocalTextRuntime({ kind: 'embedding', workers: Number(process.env.TEXT_WORKERS ?? availableParallelism()), log: () => undefined })
    : null;

@Controller()
class BareController {
  @Post('bare')
  @HttpCode(200)
  async bare(@Body() body: { content?: string }) {
    if (SCORER) await SCORER.score(String(body.content ?? ''), 'en');
    return RESPONSE;
  }
}

@Module({ controllers: [BareController] })
class BareModule {}

async function main() {
  const adapter = process.env.HTTP_ADAPTER === 'express' ? new ExpressAdapter() : new FastifyAdapter();
  await SCORER?.ready();
  const app = await NestFactory.create(BareModule, adapter as any, { logger: false });
  await app.listen(Number(process.env.PORT), '127.0.0.1');
  console.log('ready');
}

void main();
