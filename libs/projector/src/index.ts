export { ProjectorModule } from './projector.module';
export { ProjectorService } from './projector.service';
export { liftBatch, replayPass } from './replay-pass';
export { rebuildElasticsearch, rebuildSqlite } from './rebuild';
export type { RebuildResult } from './rebuild';
