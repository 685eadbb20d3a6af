export { ProjectorModule } from './projector.module';
export { ProjectorService, liftBatch } from './projector.service';
export { rebuildElasticsearch, rebuildSqlite, replayPass } from './rebuild';
export type { RebuildResult } from './rebuild';
