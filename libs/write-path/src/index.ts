export { EventWriter } from './event-writer.service';
export { WritePathModule } from './write-path.module';
