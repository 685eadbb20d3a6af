import 'reflect-metadata';
import { Body, Controller, HttpCode, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { ExpressAdapter } from '@nestjs/platform-express';

/** The benchmark baseline: a bare NestJS endpoint on the same adapter that parses a
 * JSON body and answers a fixed response of the size of a Check decision. */
const RESPONSE = JSON.parse(process.env.BARE_RESPONSE ?? '{}');

@Controller()
class BareController {
  @Post('bare')
  @HttpCode(200)
  bare(@Body() _body: unknown) {
    return RESPONSE;
  }
}

@Module({ controllers: [BareController] })
class BareModule {}

async function main() {
  const adapter = process.env.HTTP_ADAPTER === 'express' ? new ExpressAdapter() : new FastifyAdapter();
  const app = await NestFactory.create(BareModule, adapter as any, { logger: false });
  await app.listen(Number(process.env.PORT), '127.0.0.1');
  console.log('ready');
}

void main();
