import { Body, Controller, Headers, HttpCode, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { Principal } from '@cds/auth';
import { CurrentPrincipal, RequireScope } from '../http/auth.decorators';
import { CheckContentCommand, CheckMultimodalCommand, CheckRequestDto, MultimodalRequestDto } from '@cds/checks';
import { DryRunRequestDto } from './dry-run.dto';
import { DryRunQuery } from './dry-run.query';

@Controller('v1/check')
@RequireScope('checks')
export class ChecksController {
  constructor(private readonly commands: CommandBus, private readonly queries: QueryBus) {}

  @Post()
  @HttpCode(200)
  check(@CurrentPrincipal() p: Principal, @Body() body: CheckRequestDto, @Headers('idempotency-key') key?: string) {
    return this.commands.execute(new CheckContentCommand(p, body, idempotencyKey(key)));
  }

  @Post('multimodal')
  @HttpCode(200)
  multimodal(@CurrentPrincipal() p: Principal, @Body() body: MultimodalRequestDto, @Headers('idempotency-key') key?: string) {
    return this.commands.execute(new CheckMultimodalCommand(p, body, idempotencyKey(key)));
  }

  @Post('dry-run')
  @HttpCode(200)
  dryRun(@CurrentPrincipal() p: Principal, @Body() body: DryRunRequestDto) {
    return this.queries.execute(new DryRunQuery(p, body));
  }
}

function idempotencyKey(header: string | undefined): string | null {
  return typeof header === 'string' && header.length > 0 ? header.slice(0, 255) : null;
}
