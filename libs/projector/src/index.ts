export { ProjectorModule } from './projector.module';
export { ProjectorService } from './projector.service';
export { replayPass } from './replay-pass';
export type { ReplayTarget } from './replay-pass';
export { rebuild } from './rebuild';
export type { RebuildLogger, RebuildResult } from './rebuild';
