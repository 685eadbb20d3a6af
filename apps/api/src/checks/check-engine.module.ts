import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { BatchChecker } from '../batches/batch-checker.service';
import { EventWriter } from '../infra/event-writer.service';
import { PolicyCatalog } from '../policies/policy-catalog.service';
import { CheckContentHandler } from './check-content.handler';
import { TextModeration } from './text-moderation.service';

/**
 * The one check path (CheckContentCommand: policy, text model, decision event) and the
 * batch checker on top of it, without HTTP. The api serves it; the worker runs async
 * batches through it. Needs the config, event-log and read-models modules from its host.
 */
@Module({
  imports: [CqrsModule.forRoot()],
  providers: [CheckContentHandler, TextModeration, PolicyCatalog, EventWriter, BatchChecker],
  exports: [TextModeration, PolicyCatalog, EventWriter, BatchChecker],
})
export class CheckEngineModule {}
