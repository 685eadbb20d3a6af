export { WorkerModule } from './worker.module';
export { WorkerService, WORKER_TOPICS } from './worker.service';
export { WebhookDispatcher, DISPATCH_SOURCE_TOPICS } from './webhook-dispatch/webhook-dispatcher.service';
