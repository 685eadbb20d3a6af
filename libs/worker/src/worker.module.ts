import { Module } from '@nestjs/common';

/**
 * The worker: webhook dispatch, async batches and video jobs consume the log here.
 * It has no consumer yet; in embedded mode it runs inside the api process.
 */
@Module({})
export class WorkerModule {}
