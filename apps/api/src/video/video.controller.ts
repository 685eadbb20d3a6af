import { Body, Controller, Get, HttpCode, Param, Post, Query, Res, StreamableFile } from '@nestjs/common';
import { Principal } from '@cds/auth';
import { CurrentPrincipal, Public, RequireScope } from '../http/auth.decorators';
import { MultipartBody, MultipartForm } from '../http/multipart';
import { VideoCheckDto } from './video.dto';
import { VideoService } from './video.service';

@Controller('v1/video')
@RequireScope('checks')
export class VideoController {
  constructor(private readonly videos: VideoService) {}

  @Post('check')
  @HttpCode(202)
  check(@CurrentPrincipal() p: Principal, @Body() body: VideoCheckDto) {
    return this.videos.check(p, body);
  }

  @Post('upload')
  @HttpCode(202)
  upload(@CurrentPrincipal() p: Principal, @MultipartBody() form: MultipartForm) {
    return this.videos.upload(p, form);
  }

  @Get('status/:decisionId')
  status(@CurrentPrincipal() p: Principal, @Param('decisionId') id: string) {
    return this.videos.status(p, id);
  }

  @Get('result/:decisionId')
  async result(@CurrentPrincipal() p: Principal, @Param('decisionId') id: string, @Res({ passthrough: true }) reply: any) {
    const { status, body } = await this.videos.result(p, id);
    reply.status(status);
    return body;
  }

  /** A signed, expiring capability URL (from the result's `evidence.url`): no API key. */
  @Public()
  @Get('evidence/:decisionId/:frame')
  async evidence(@Param('decisionId') decisionId: string, @Param('frame') frame: string, @Query() q: Record<string, unknown>) {
    const jpeg = await this.videos.evidence({ tenant: q.tenant, decisionId, frame, expires: q.expires, sig: q.sig });
    return new StreamableFile(jpeg, { type: 'image/jpeg', length: jpeg.length, disposition: 'inline' });
  }
}
