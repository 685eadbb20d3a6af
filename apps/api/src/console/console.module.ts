import { Module } from '@nestjs/common';
import { ConsoleController } from './console.controller';
import { ConsoleAssets } from './console-assets.service';

/** The moderator console: a static single-page app over the /v1 API, served by the api. */
@Module({
  controllers: [ConsoleController],
  providers: [ConsoleAssets],
})
export class ConsoleModule {}
