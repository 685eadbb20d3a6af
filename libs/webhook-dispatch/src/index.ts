export { WebhookDispatchModule } from './webhook-dispatch.module';
export { WebhookDispatcher, DISPATCH_SOURCE_TOPICS } from './webhook-dispatcher.service';
