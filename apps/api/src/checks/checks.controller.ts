import { Body, Controller, Headers, Post } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { Principal } from '@cds/auth';
import { CurrentPrincipal, RequireScope } from '../http/auth.decorators';
import { CheckRequestDto, ContentCheck, MultimodalCheck, MultimodalRequestDto } from '@cds/checks';
import { DryRunRequestDto } from './dry-run.dto';
import { DryRun } from './dry-run.service';
import { Endpoint } from '../openapi/api-docs.decorators';
import { CheckDecision, DryRunResult, MultimodalDecision } from './checks.answers';

const IDEMPOTENCY_KEY = ApiHeader({
  name: 'Idempotency-Key',
  required: false,
  description: 'the same key (or body requestId) sent again answers the decision already made, without checking again',
});

@ApiTags('checks')
@Controller('v1/check')
@RequireScope('checks')
export class ChecksController {
  constructor(
    private readonly content: ContentCheck,
    private readonly multimodalChecks: MultimodalCheck,
    private readonly dryRuns: DryRun,
  ) {}

  @Post()
  @Endpoint('Evaluate one piece of content (text, or an image as base64, data URI, URL or media reference)', CheckDecision, { body: true, errors: [404] })
  @IDEMPOTENCY_KEY
  check(@CurrentPrincipal() p: Principal, @Body() body: CheckRequestDto, @Headers('idempotency-key') key?: string): Promise<CheckDecision> {
    return this.content.check(p, body, idempotencyKey(key));
  }

  @Post('multimodal')
  @Endpoint('Several content kinds (text, up to 10 images, a video) in one decision', MultimodalDecision, { body: true, errors: [404] })
  @IDEMPOTENCY_KEY
  multimodal(@CurrentPrincipal() p: Principal, @Body() body: MultimodalRequestDto, @Headers('idempotency-key') key?: string): Promise<MultimodalDecision> {
    return this.multimodalChecks.check(p, body, idempotencyKey(key));
  }

  @Post('dry-run')
  @Endpoint('Evaluate a stored or unsaved policy against mock scores or signals; calls no provider, records nothing', DryRunResult, {
    body: true,
    errors: [404],
  })
  dryRun(@CurrentPrincipal() p: Principal, @Body() body: DryRunRequestDto): Promise<DryRunResult> {
    return this.dryRuns.run(p, body);
  }
}

function idempotencyKey(header: string | undefined): string | null {
  return typeof header === 'string' && header.length > 0 ? header.slice(0, 255) : null;
}
