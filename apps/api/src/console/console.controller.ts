import { ApiExcludeController } from '@nestjs/swagger';
import { Controller, Get, Req, Res, StreamableFile } from '@nestjs/common';
import { Public } from '../http/auth.decorators';
import { setHeader } from '../http/reply';
import { CONSOLE_HEADERS } from './console-asset-path';
import { ConsoleAssets } from './console-assets.service';

/** GET /console and /console/*: the moderator console's static files. No key: the page
 * asks for one and sends it on its own /v1 calls. */
@ApiExcludeController()
@Controller('console')
@Public()
export class ConsoleController {
  constructor(private readonly assets: ConsoleAssets) {}

  /** Files two levels deep at most (`pages/*.js`): plain parameters route the same on
   * fastify and express, where a wildcard is written differently on each. */
  @Get(['', ':file', ':dir/:file'])
  asset(@Req() req: any, @Res({ passthrough: true }) reply: any): StreamableFile {
    return serve(this.assets, req, reply);
  }
}

/** The headers go first, so a 404 carries them too. The file is named by the raw URL
 * (fastify's req.url, express's originalUrl), decoded once by consoleAssetPath. */
function serve(assets: ConsoleAssets, req: any, reply: any): StreamableFile {
  for (const [name, value] of Object.entries(CONSOLE_HEADERS)) setHeader(reply, name, value);
  const { body, contentType } = assets.get(String(req.originalUrl ?? req.url));
  return new StreamableFile(body, { type: contentType, length: body.length });
}
