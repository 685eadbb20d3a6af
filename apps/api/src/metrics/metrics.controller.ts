import { Controller, Get, Headers, Res } from '@nestjs/common';
import { AppConfig } from '@cds/config';
import { DomainError } from '@cds/errors';
import { Metrics } from '@cds/metrics';
import { timingSafeEqual } from 'node:crypto';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '../http/auth.decorators';
import { ApiErrors } from '../openapi/api-docs.decorators';

/** GET /metrics: Prometheus text format. Open like /health unless METRICS_TOKEN is set,
 * then it takes `Authorization: Bearer <METRICS_TOKEN>` (API keys do not open it). */
@ApiTags('operations')
@Controller('metrics')
export class MetricsController {
  constructor(
    private readonly metrics: Metrics,
    private readonly config: AppConfig,
  ) {}

  @Public()
  @Get()
  @ApiOperation({ summary: 'Prometheus metrics (text exposition format); Authorization: Bearer <METRICS_TOKEN> when that is set' })
  @ApiResponse({ status: 200, description: 'metrics', content: { 'text/plain': { schema: { type: 'string' } } } })
  @ApiErrors(401)
  async scrape(@Headers('authorization') authorization: string | undefined, @Res({ passthrough: true }) reply: any): Promise<string> {
    const token = this.config.METRICS_TOKEN;
    if (token && !sameSecret(authorization ?? '', `Bearer ${token}`)) {
      throw new DomainError('unauthorized', 'INVALID_METRICS_TOKEN', 'Missing or invalid metrics token', 'send Authorization: Bearer <METRICS_TOKEN>');
    }
    const { contentType, body } = await this.metrics.render();
    reply.header('content-type', contentType);
    return body;
  }
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
