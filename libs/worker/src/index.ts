export { WorkerModule } from './worker.module';
export { WebhookDispatcher, DISPATCH_SOURCE_TOPICS } from './webhook-dispatch/webhook-dispatcher.service';
