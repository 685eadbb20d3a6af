import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Principal } from '@cds/auth';
import { ApiQueryFrom, Endpoint } from '../openapi/api-docs.decorators';
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
  @Endpoint('Register a webhook (its signing secret is shown once)', WebhookCreated, { status: 201, body: true })
  create(@CurrentPrincipal() p: Principal, @Body() body: CreateWebhookDto): Promise<WebhookCreated> {
    return this.webhooks.create(p, body);
  }

  @Get()
  @Endpoint('The webhooks of this tenant', WebhookList)
  async list(@CurrentPrincipal() p: Principal): Promise<WebhookList> {
    return { webhooks: await this.webhooks.list(p) };
  }

  @Get(':webhookId')
  @Endpoint('One webhook', Webhook, { errors: [404] })
  get(@CurrentPrincipal() p: Principal, @Param('webhookId') id: string): Promise<Webhook> {
    return this.webhooks.get(p, id);
  }

  @Patch(':webhookId')
  @Endpoint('Change enabled, events, url or description', Webhook, { body: true, errors: [404] })
  update(@CurrentPrincipal() p: Principal, @Param('webhookId') id: string, @Body() body: UpdateWebhookDto): Promise<Webhook> {
    return this.webhooks.update(p, id, body);
  }

  @Delete(':webhookId')
  @Endpoint('Delete a webhook; pending deliveries stop', WebhookDeleted, { errors: [404] })
  remove(@CurrentPrincipal() p: Principal, @Param('webhookId') id: string): Promise<WebhookDeleted> {
    return this.webhooks.remove(p, id);
  }

  @Post(':webhookId/test')
  @Endpoint('Send one signed test event of the given type now; the answer says how it went', WebhookTestResult, { body: true, errors: [404] })
  test(@CurrentPrincipal() p: Principal, @Param('webhookId') id: string, @Body() body: TestWebhookDto): Promise<WebhookTestResult> {
    return this.webhooks.test(p, id, body.eventType);
  }

  @Get(':webhookId/deliveries')
  @Endpoint('Delivery attempts of a webhook, newest first', WebhookDeliveryList, { errors: [404, 422] })
  @ApiQueryFrom(ListDeliveriesQueryDto)
  async deliveries(@CurrentPrincipal() p: Principal, @Param('webhookId') id: string, @Query() q: ListDeliveriesQueryDto): Promise<WebhookDeliveryList> {
    return { deliveries: await this.webhooks.deliveries(p, id, q.limit) };
  }
}
