import { Controller, Get, Inject, Res } from '@nestjs/common';
import { EVENT_LOG, EventLog } from '@cds/event-log';
import { READ_MODELS, ReadModels } from '@cds/read-models';
import { PROVIDER_REGISTRY, ProviderRegistry } from '@cds/providers';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../http/auth.decorators';
import { ApiAnswer } from '../openapi/api-docs.decorators';

/** Probes for orchestrators, outside /v1 and without a key: liveness, and readiness
 * that reports each dependency. */
@ApiTags('operations')
@Controller()
@Public()
export class HealthController {
  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
    @Inject(PROVIDER_REGISTRY) private readonly providers: ProviderRegistry,
  ) {}

  @Get('health')
  @ApiOperation({ summary: 'Liveness' })
  @ApiAnswer(200, 'Health')
  health() {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiOperation({ summary: 'Readiness: the event log and the read models answer' })
  @ApiAnswer(200, 'Readiness')
  @ApiAnswer(503, 'Readiness', 'Not ready')
  async ready(@Res({ passthrough: true }) reply: any) {
    const [eventLog, readModels] = await Promise.all([this.log.healthy().catch(() => false), this.readModels.healthy().catch(() => false)]);
    const ready = eventLog && readModels;
    reply.status(ready ? 200 : 503);
    const providers = Object.fromEntries(
      this.providers
        .describe()
        .filter((p) => p.configured)
        .map((p) => [p.name, p.circuit]),
    );
    return { status: ready ? 'ready' : 'not_ready', eventLog, readModels, providers };
  }
}
