import { Body, Controller, Get, Headers, Param, Post } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { Principal } from '@cds/auth';
import { Endpoint } from '../openapi/api-docs.decorators';
import { CurrentPrincipal, RequireScope } from '../http/auth.decorators';
import { AsyncBatchCheckDto, BatchCheckDto } from './batches.dto';
import { BatchesService } from './batches.service';
import { AsyncBatch, AsyncBatchAccepted, BatchResult } from './batches.answers';

@ApiTags('batches')
@Controller('v1/batch')
@RequireScope('checks')
export class BatchesController {
  constructor(private readonly batches: BatchesService) {}

  @Post('check')
  @Endpoint('Check many items now; an item that fails gets its own error and does not fail the batch', BatchResult, { body: true, errors: [404] })
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'the same batch sent again with this key answers the decisions already made' })
  check(@CurrentPrincipal() p: Principal, @Body() body: BatchCheckDto, @Headers('idempotency-key') key?: string): Promise<BatchResult> {
    return this.batches.checkNow(p, body, typeof key === 'string' && key.length > 0 ? key.slice(0, 200) : null);
  }

  @Post('check/async')
  @Endpoint('Check many items in the background; the results go to webhookUrl as moderation.completed', AsyncBatchAccepted, {
    status: 202,
    body: true,
    errors: [404],
  })
  checkAsync(@CurrentPrincipal() p: Principal, @Body() body: AsyncBatchCheckDto): Promise<AsyncBatchAccepted> {
    return this.batches.accept(p, body);
  }

  @Get(':batchId')
  @Endpoint('The state of an asynchronous batch, with its results once completed', AsyncBatch, { errors: [404] })
  get(@CurrentPrincipal() p: Principal, @Param('batchId') batchId: string): Promise<AsyncBatch> {
    return this.batches.get(p, batchId);
  }
}
