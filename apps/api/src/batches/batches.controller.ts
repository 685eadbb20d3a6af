import { Body, Controller, Get, Headers, HttpCode, Param, Post } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Principal } from '@cds/auth';
import { ApiAnswer, ApiBodyErrors, ApiErrors } from '../openapi/api-docs.decorators';
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
  @HttpCode(200)
  @ApiOperation({ summary: 'Check many items now; an item that fails gets its own error and does not fail the batch' })
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'the same batch sent again with this key answers the decisions already made' })
  @ApiAnswer(200, BatchResult)
  @ApiBodyErrors()
  @ApiErrors(404)
  check(@CurrentPrincipal() p: Principal, @Body() body: BatchCheckDto, @Headers('idempotency-key') key?: string): Promise<BatchResult> {
    return this.batches.checkNow(p, body, typeof key === 'string' && key.length > 0 ? key.slice(0, 200) : null);
  }

  @Post('check/async')
  @HttpCode(202)
  @ApiOperation({ summary: 'Check many items in the background; the results go to webhookUrl as moderation.completed' })
  @ApiAnswer(202, AsyncBatchAccepted, 'Accepted')
  @ApiBodyErrors()
  @ApiErrors(404)
  checkAsync(@CurrentPrincipal() p: Principal, @Body() body: AsyncBatchCheckDto): Promise<AsyncBatchAccepted> {
    return this.batches.accept(p, body);
  }

  @Get(':batchId')
  @ApiOperation({ summary: 'The state of an asynchronous batch, with its results once completed' })
  @ApiAnswer(200, AsyncBatch)
  @ApiErrors(404)
  get(@CurrentPrincipal() p: Principal, @Param('batchId') batchId: string): Promise<AsyncBatch> {
    return this.batches.get(p, batchId);
  }
}
