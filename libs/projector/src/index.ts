export { ProjectorModule } from './projector.module';
export { ProjectorService, liftBatch } from './projector.service';
export { rebuildSqlite } from './rebuild';
