import 'reflect-metadata';
import { Body, Controller, HttpCode, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { ExpressAdapter } from '@nestjs/platform-express';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { FileEventLog } from '@cds/event-log';
import { LOCAL_TEXT_SIGNALS, LocalTextRuntime } from '@cds/providers';
import { floorDecisionEvent } from './floor-event';

/** The benchmark baseline: a bare NestJS endpoint on the same adapter that parses a
 * JSON body and answers a fixed response of the size of a Check decision. With
 * BARE_SCORER=embedding or ngram it first scores the body's `content` with that text model
 * (the service's own LocalTextRuntime; embedding on TEXT_WORKERS threads): the scorer's
 * cost alone. With BARE_LOG_DIR it then appends the decision's event (fixed scores without
 * a scorer) to a FileEventLog there and answers once it is durable (bench:floor): with
 * BARE_SCORER=ngram, the two steps of a check no design can leave out. */
const RESPONSE = JSON.parse(process.env.BARE_RESPONSE ?? '{}');
const KIND = process.env.BARE_SCORER === 'embedding' || process.env.BARE_SCORER === 'ngram' ? process.env.BARE_SCORER : null;
const SCORER = KIND ? new LocalTextRuntime({ kind: KIND, workers: Number(process.env.TEXT_WORKERS ?? availableParallelism()), log: () => undefined }) : null;
const LOG = process.env.BARE_LOG_DIR ? FileEventLog.open({ dir: process.env.BARE_LOG_DIR }) : null;
/** The scores logged when nothing scores (BARE_LOG_DIR alone): a text's twelve signals. */
const UNSCORED = { signals: Object.fromEntries(LOCAL_TEXT_SIGNALS.map((s, i) => [s, (i + 1) / 97])), model: 'none' };

@Controller()
class BareController {
  @Post('bare')
  @HttpCode(200)
  async bare(@Body() body: { content?: string; metadata?: Record<string, unknown> }) {
    if (!SCORER && !LOG) return RESPONSE;
    const started = performance.now();
    const content = String(body.content ?? '');
    const scored = SCORER ? await SCORER.score(content, 'en') : UNSCORED;
    if (LOG) {
      const event = floorDecisionEvent(content, body.metadata ?? {}, scored.signals, scored.model, performance.now() - started);
      await (await LOG).append('decisions', [event]);
    }
    return RESPONSE;
  }
}

@Module({ controllers: [BareController] })
class BareModule {}

async function main() {
  const adapter = process.env.HTTP_ADAPTER === 'express' ? new ExpressAdapter() : new FastifyAdapter();
  await SCORER?.ready();
  await LOG;
  const app = await NestFactory.create(BareModule, adapter as any, { logger: false });
  await app.listen(Number(process.env.PORT), '127.0.0.1');
  console.log('ready');
}

void main();
