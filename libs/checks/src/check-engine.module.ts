import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { BatchChecker } from './batch-checker.service';
import { WritePathModule } from '@cds/write-path';
import { PolicyCatalog } from './policy-catalog.service';
import { CheckContentHandler } from './check-content.handler';
import { ContentScorer } from './content-scorer.service';
import { ImageIntake } from './image-intake.service';
import { CheckMultimodalHandler } from './check-multimodal.handler';
import { VideoScanner } from './video/video-scanner.service';

/**
 * The one check path (CheckContentCommand and CheckMultimodalCommand: policy, providers, decision event) and the
 * batch checker on top of it, without HTTP. The api serves it; the worker runs async
 * batches through it. Needs the config, event-log, read-models, providers and blob-store modules from its host.
 */
@Module({
  imports: [CqrsModule.forRoot(), WritePathModule],
  providers: [CheckContentHandler, CheckMultimodalHandler, ContentScorer, ImageIntake, VideoScanner, PolicyCatalog, BatchChecker],
  exports: [ContentScorer, ImageIntake, VideoScanner, PolicyCatalog, BatchChecker, WritePathModule],
})
export class CheckEngineModule {}
