import { Body, Controller, Get, Headers, HttpCode, Param, Post } from '@nestjs/common';
import { Principal } from '@cds/auth';
import { CurrentPrincipal, RequireScope } from '../http/auth.decorators';
import { AsyncBatchCheckDto, BatchCheckDto } from './batches.dto';
import { BatchesService } from './batches.service';

@Controller('v1/batch')
@RequireScope('checks')
export class BatchesController {
  constructor(private readonly batches: BatchesService) {}

  @Post('check')
  @HttpCode(200)
  check(@CurrentPrincipal() p: Principal, @Body() body: BatchCheckDto, @Headers('idempotency-key') key?: string) {
    return this.batches.checkNow(p, body, typeof key === 'string' && key.length > 0 ? key.slice(0, 200) : null);
  }

  @Post('check/async')
  @HttpCode(202)
  checkAsync(@CurrentPrincipal() p: Principal, @Body() body: AsyncBatchCheckDto) {
    return this.batches.accept(p, body);
  }

  @Get(':batchId')
  get(@CurrentPrincipal() p: Principal, @Param('batchId') batchId: string) {
    return this.batches.get(p, batchId);
  }
}
