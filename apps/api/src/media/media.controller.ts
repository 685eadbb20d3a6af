import { Controller, Get, Inject, Param, StreamableFile } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Principal } from '@cds/auth';
import { ApiBinaryAnswer, ApiErrors } from '../openapi/api-docs.decorators';
import { BLOB_STORE, BlobStore, isSha256 } from '@cds/blob-store';
import { notFound } from '@cds/errors';
import { sniffImageFormat } from '@cds/media';
import { CurrentPrincipal, RequireScope } from '../http/auth.decorators';

/** GET /v1/media/sha256/{hex}: an image a decision of this tenant scored, while it is
 * kept (MEDIA_RETENTION_DAYS), so a reviewer sees what was decided on. */
@ApiTags('decisions')
@Controller('v1/media')
@RequireScope('decisions')
export class MediaController {
  constructor(@Inject(BLOB_STORE) private readonly blobs: BlobStore) {}

  @Get('sha256/:hex')
  @ApiOperation({ summary: 'An image a decision of this tenant scored, while it is kept (MEDIA_RETENTION_DAYS)' })
  @ApiBinaryAnswer('image/*', 'the image')
  @ApiErrors(404)
  async get(@CurrentPrincipal() p: Principal, @Param('hex') hex: string): Promise<StreamableFile> {
    const bytes = isSha256(hex) ? await this.blobs.get(p.tenantId, hex) : null;
    if (!bytes)
      throw notFound('MEDIA_NOT_FOUND', 'Media not found', `no media sha256:${hex} in this tenant (never stored, or deleted after MEDIA_RETENTION_DAYS)`);
    const format = sniffImageFormat(bytes);
    const type = format && format !== 'svg' ? `image/${format}` : 'application/octet-stream';
    return new StreamableFile(bytes, { type, length: bytes.length, disposition: 'inline' });
  }
}
