import { Module } from '@nestjs/common';
import { EventWriter } from './event-writer.service';

/** The write path of every endpoint and job (validate, append durably, wait for the
 * projection). Needs the config, event-log and read-models modules from its host. */
@Module({ providers: [EventWriter], exports: [EventWriter] })
export class WritePathModule {}
