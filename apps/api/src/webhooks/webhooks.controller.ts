import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { Principal } from '@cds/auth';
import { CurrentPrincipal, RequireScope } from '../http/auth.decorators';
import { CreateWebhookDto, ListDeliveriesQueryDto, TestWebhookDto, UpdateWebhookDto } from './webhooks.dto';
import { WebhooksService } from './webhooks.service';

@Controller('v1/webhooks')
@RequireScope('webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post()
  create(@CurrentPrincipal() p: Principal, @Body() body: CreateWebhookDto) {
    return this.webhooks.create(p, body);
  }

  @Get()
  async list(@CurrentPrincipal() p: Principal) {
    return { webhooks: await this.webhooks.list(p) };
  }

  @Get(':webhookId')
  get(@CurrentPrincipal() p: Principal, @Param('webhookId') id: string) {
    return this.webhooks.get(p, id);
  }

  @Patch(':webhookId')
  update(@CurrentPrincipal() p: Principal, @Param('webhookId') id: string, @Body() body: UpdateWebhookDto) {
    return this.webhooks.update(p, id, body);
  }

  @Delete(':webhookId')
  @HttpCode(200)
  remove(@CurrentPrincipal() p: Principal, @Param('webhookId') id: string) {
    return this.webhooks.remove(p, id);
  }

  @Post(':webhookId/test')
  @HttpCode(200)
  test(@CurrentPrincipal() p: Principal, @Param('webhookId') id: string, @Body() body: TestWebhookDto) {
    return this.webhooks.test(p, id, body.eventType);
  }

  @Get(':webhookId/deliveries')
  async deliveries(@CurrentPrincipal() p: Principal, @Param('webhookId') id: string, @Query() q: ListDeliveriesQueryDto) {
    return { deliveries: await this.webhooks.deliveries(p, id, q.limit) };
  }
}
