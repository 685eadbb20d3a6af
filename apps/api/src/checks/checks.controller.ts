import { Body, Controller, Headers, HttpCode, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { Principal } from '@cds/auth';
import { CurrentPrincipal, RequireScope } from '../http/auth.decorators';
import { CheckContentCommand, CheckRequestDto } from '@cds/checks';
import { DryRunRequestDto } from './dry-run.dto';
import { DryRunQuery } from './dry-run.query';

@Controller('v1/check')
@RequireScope('checks')
export class ChecksController {
  constructor(private readonly commands: CommandBus, private readonly queries: QueryBus) {}

  @Post()
  @HttpCode(200)
  check(@CurrentPrincipal() p: Principal, @Body() body: CheckRequestDto, @Headers('idempotency-key') key?: string) {
    return this.commands.execute(new CheckContentCommand(p, body, typeof key === 'string' && key.length > 0 ? key.slice(0, 255) : null));
  }

  @Post('dry-run')
  @HttpCode(200)
  dryRun(@CurrentPrincipal() p: Principal, @Body() body: DryRunRequestDto) {
    return this.queries.execute(new DryRunQuery(p, body));
  }
}
