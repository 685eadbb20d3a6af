import { Module } from '@nestjs/common';
import { WebhookDispatcher } from './webhook-dispatcher.service';

/** Webhook dispatch and retries. Needs EventLogModule and ReadModelsModule from its host. */
@Module({ providers: [WebhookDispatcher], exports: [WebhookDispatcher] })
export class WebhookDispatchModule {}
