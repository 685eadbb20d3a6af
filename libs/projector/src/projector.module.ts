import { Module } from '@nestjs/common';
import { ProjectorService } from './projector.service';

/** The projector: log -> read models. Needs EventLogModule and ReadModelsModule. */
@Module({ providers: [ProjectorService], exports: [ProjectorService] })
export class ProjectorModule {}
