import { Body, Controller, Get, Param, Post, Query, Res, StreamableFile } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Principal } from '@cds/auth';
import { ApiAnswer, ApiErrors, Endpoint } from '../openapi/api-docs.decorators';
import { CurrentPrincipal, Public, RequireScope } from '../http/auth.decorators';
import { MultipartBody, MultipartForm } from '../http/multipart';
import { VideoCheckDto } from './video.dto';
import { VideoService } from './video.service';
import { VideoAccepted, VideoResult, VideoStatus } from './video.answers';

@ApiTags('video')
@Controller('v1/video')
@RequireScope('checks')
export class VideoController {
  constructor(private readonly videos: VideoService) {}

  @Post('check')
  @Endpoint('Moderate a video by URL, in the background', VideoAccepted, { status: 202, body: true, errors: [404] })
  check(@CurrentPrincipal() p: Principal, @Body() body: VideoCheckDto): Promise<VideoAccepted> {
    return this.videos.check(p, body);
  }

  @Post('upload')
  @Endpoint('Moderate an uploaded video (multipart/form-data, at most 100 MB), in the background', VideoAccepted, {
    status: 202,
    body: true,
    errors: [404, 415],
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['video', 'policyId'],
      properties: {
        video: { type: 'string', format: 'binary', description: 'at most VIDEO_MAX_BYTES (100 MB): 413 VIDEO_TOO_LARGE past it' },
        policyId: { type: 'string' },
        webhookUrl: { type: 'string', description: 'gets moderation.completed or moderation.failed, signed' },
        maxDurationSeconds: { type: 'integer', minimum: 1, default: 300, description: 'a longer video is refused (422 VIDEO_TOO_LONG)' },
        language: { type: 'string', maxLength: 16, default: 'en', description: 'of the text read in frames, as for /v1/check' },
        metadata: { type: 'string', description: 'a JSON object, kept with the decision' },
        extractionStrategy: {
          type: 'string',
          description: 'JSON {frameInterval, maxFrames, mode, stopOnBlock}; the fields of the same names override its members',
        },
        frameInterval: { type: 'number', minimum: 0.1, maximum: 3600, description: 'seconds between sampled frames (default VIDEO_FRAME_INTERVAL, 2)' },
        maxFrames: { type: 'integer', minimum: 1, description: 'default VIDEO_DEFAULT_MAX_FRAMES (60), at most VIDEO_FRAMES_CAP (300)' },
        mode: { type: 'string', enum: ['interval', 'scenes'], default: 'interval', description: 'a frame every frameInterval, or at each scene change' },
        stopOnBlock: { type: 'boolean', default: false, description: 'stop at the first frame whose action is block' },
      },
    },
  })
  upload(@CurrentPrincipal() p: Principal, @MultipartBody() form: MultipartForm): Promise<VideoAccepted> {
    return this.videos.upload(p, form);
  }

  @Get('status/:decisionId')
  @Endpoint('Progress of a video decision', VideoStatus, { errors: [404] })
  status(@CurrentPrincipal() p: Principal, @Param('decisionId') id: string): Promise<VideoStatus> {
    return this.videos.status(p, id);
  }

  @Get('result/:decisionId')
  @Endpoint('The result once completed (200); the progress while processing (202); the reason when failed (200, status failed)', 'VideoResult', {
    errors: [404],
  })
  @ApiAnswer(202, 'VideoResult', 'Still processing')
  async result(@CurrentPrincipal() p: Principal, @Param('decisionId') id: string, @Res({ passthrough: true }) reply: any): Promise<VideoResult> {
    const { status, body } = await this.videos.result(p, id);
    reply.status(status);
    return body;
  }

  /** A signed, expiring capability URL (from the result's `evidence.url`): no API key. */
  @Public()
  @Get('evidence/:decisionId/:frame')
  @ApiOperation({ summary: 'A flagged frame, by the signed expiring URL of a result (no API key)' })
  @ApiQuery({ name: 'tenant', required: true, schema: { type: 'string' } })
  @ApiQuery({ name: 'expires', required: true, schema: { type: 'string' } })
  @ApiQuery({ name: 'sig', required: true, schema: { type: 'string' } })
  @ApiResponse({ status: 200, description: 'the frame', content: { 'image/jpeg': { schema: { type: 'string', format: 'binary' } } } })
  @ApiErrors(403, 404)
  async evidence(@Param('decisionId') decisionId: string, @Param('frame') frame: string, @Query() q: Record<string, unknown>) {
    const jpeg = await this.videos.evidence({ tenant: q.tenant, decisionId, frame, expires: q.expires, sig: q.sig });
    return new StreamableFile(jpeg, { type: 'image/jpeg', length: jpeg.length, disposition: 'inline' });
  }
}
