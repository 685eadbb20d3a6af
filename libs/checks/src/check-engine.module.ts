import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { BatchChecker } from './batch-checker.service';
import { WritePathModule } from '@cds/write-path';
import { PolicyCatalog } from './policy-catalog.service';
import { CheckContentHandler } from './check-content.handler';
import { TextModeration } from './text-moderation.service';

/**
 * The one check path (CheckContentCommand: policy, text model, decision event) and the
 * batch checker on top of it, without HTTP. The api serves it; the worker runs async
 * batches through it. Needs the config, event-log and read-models modules from its host.
 */
@Module({
  imports: [CqrsModule.forRoot(), WritePathModule],
  providers: [CheckContentHandler, TextModeration, PolicyCatalog, BatchChecker],
  exports: [TextModeration, PolicyCatalog, BatchChecker, WritePathModule],
})
export class CheckEngineModule {}
