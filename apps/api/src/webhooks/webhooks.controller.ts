import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Principal } from '@cds/auth';
import { ApiAnswer, ApiBodyErrors, ApiErrors, ApiQueryFrom } from '../openapi/api-docs.decorators';
import { CurrentPrincipal, RequireScope } from '../http/auth.decorators';
import { CreateWebhookDto, ListDeliveriesQueryDto, TestWebhookDto, UpdateWebhookDto } from './webhooks.dto';
import { WebhooksService } from './webhooks.service';
import { Webhook, WebhookCreated, WebhookDeleted, WebhookDeliveryList, WebhookList, WebhookTestResult } from './webhooks.answers';

@ApiTags('webhooks')
@Controller('v1/webhooks')
@RequireScope('webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post()
  @ApiOperation({ summary: 'Register a webhook (its signing secret is shown once)' })
  @ApiAnswer(201, WebhookCreated, 'Created')
  @ApiBodyErrors()
  create(@CurrentPrincipal() p: Principal, @Body() body: CreateWebhookDto): Promise<WebhookCreated> {
    return this.webhooks.create(p, body);
  }

  @Get()
  @ApiOperation({ summary: 'The webhooks of this tenant' })
  @ApiAnswer(200, WebhookList)
  async list(@CurrentPrincipal() p: Principal): Promise<WebhookList> {
    return { webhooks: await this.webhooks.list(p) };
  }

  @Get(':webhookId')
  @ApiOperation({ summary: 'One webhook' })
  @ApiAnswer(200, Webhook)
  @ApiErrors(404)
  get(@CurrentPrincipal() p: Principal, @Param('webhookId') id: string): Promise<Webhook> {
    return this.webhooks.get(p, id);
  }

  @Patch(':webhookId')
  @ApiOperation({ summary: 'Change enabled, events, url or description' })
  @ApiAnswer(200, Webhook)
  @ApiBodyErrors()
  @ApiErrors(404)
  update(@CurrentPrincipal() p: Principal, @Param('webhookId') id: string, @Body() body: UpdateWebhookDto): Promise<Webhook> {
    return this.webhooks.update(p, id, body);
  }

  @Delete(':webhookId')
  @HttpCode(200)
  @ApiOperation({ summary: 'Delete a webhook; pending deliveries stop' })
  @ApiAnswer(200, WebhookDeleted)
  @ApiErrors(404)
  remove(@CurrentPrincipal() p: Principal, @Param('webhookId') id: string): Promise<WebhookDeleted> {
    return this.webhooks.remove(p, id);
  }

  @Post(':webhookId/test')
  @HttpCode(200)
  @ApiOperation({ summary: 'Send one signed test event of the given type now; the answer says how it went' })
  @ApiAnswer(200, WebhookTestResult)
  @ApiBodyErrors()
  @ApiErrors(404)
  test(@CurrentPrincipal() p: Principal, @Param('webhookId') id: string, @Body() body: TestWebhookDto): Promise<WebhookTestResult> {
    return this.webhooks.test(p, id, body.eventType);
  }

  @Get(':webhookId/deliveries')
  @ApiOperation({ summary: 'Delivery attempts of a webhook, newest first' })
  @ApiQueryFrom(ListDeliveriesQueryDto)
  @ApiAnswer(200, WebhookDeliveryList)
  @ApiErrors(404, 422)
  async deliveries(@CurrentPrincipal() p: Principal, @Param('webhookId') id: string, @Query() q: ListDeliveriesQueryDto): Promise<WebhookDeliveryList> {
    return { deliveries: await this.webhooks.deliveries(p, id, q.limit) };
  }
}
