import { Controller, Get, Inject, Res } from '@nestjs/common';
import { EVENT_LOG, EventLog } from '@cds/event-log';
import { READ_MODELS, ReadModels } from '@cds/read-models';
import { LocalTextRuntime, PROVIDER_REGISTRY, ProviderRegistry } from '@cds/providers';
import { ApiTags } from '@nestjs/swagger';
import { Public } from '../http/auth.decorators';
import { ApiAnswer, Endpoint } from '../openapi/api-docs.decorators';
import { Health, Readiness } from './health.answers';

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
    private readonly text: LocalTextRuntime,
  ) {}

  @Get('health')
  @Endpoint('Liveness', Health)
  health(): Health {
    return { status: 'ok' };
  }

  @Get('ready')
  @Endpoint('Readiness: the event log and the read models answer, and the local text model is loaded', Readiness)
  @ApiAnswer(503, Readiness, 'Not ready')
  async ready(@Res({ passthrough: true }) reply: any): Promise<Readiness> {
    const [eventLog, readModels] = await Promise.all([this.log.healthy().catch(() => false), this.readModels.healthy().catch(() => false)]);
    // A check scores text even when an external provider does (fallbacks, OCR): a text
    // model still loading (a fraction of a second at start) or failed makes the api unready.
    const localTextModel = { model: this.text.kind, state: this.text.state };
    const ready = eventLog && readModels && localTextModel.state === 'ready';
    reply.status(ready ? 200 : 503);
    const providers = Object.fromEntries(
      this.providers
        .describe()
        .filter((p) => p.configured)
        .map((p) => [p.name, p.circuit]),
    );
    return { status: ready ? 'ready' : 'not_ready', eventLog, readModels, localTextModel, providers };
  }
}
