import { Command } from '@nestjs/cqrs';
import { Principal } from '@cds/auth';
import { CheckDecision, CheckRequestDto } from './check-request';

export class CheckContentCommand extends Command<CheckDecision> {
  constructor(
    readonly principal: Principal,
    readonly request: CheckRequestDto,
    readonly idempotencyKey: string | null,
  ) {
    super();
  }
}
