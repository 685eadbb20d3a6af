import { Module } from '@nestjs/common';
import { BatchChecker } from './batch-checker.service';
import { WritePathModule } from '@cds/write-path';
import { PolicyCatalog } from './policy-catalog.service';
import { ContentCheck } from './content-check.service';
import { ContentScorer } from './content-scorer.service';
import { ImageIntake } from './image-intake.service';
import { MultimodalCheck } from './multimodal-check.service';
import { VideoScanner } from './video/video-scanner.service';

/**
 * The one check path (ContentCheck and MultimodalCheck: policy, providers, decision event) and the
 * batch checker on top of it, without HTTP. The api serves it; the worker runs async
 * batches through it. Needs the config, event-log, read-models, providers and blob-store modules from its host.
 */
@Module({
  imports: [WritePathModule],
  providers: [ContentCheck, MultimodalCheck, ContentScorer, ImageIntake, VideoScanner, PolicyCatalog, BatchChecker],
  exports: [ContentCheck, MultimodalCheck, ContentScorer, ImageIntake, VideoScanner, PolicyCatalog, BatchChecker, WritePathModule],
})
export class CheckEngineModule {}
