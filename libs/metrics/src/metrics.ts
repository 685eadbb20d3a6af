import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * The Prometheus metrics of one process (api, projector, worker, or all three embedded),
 * labelled with the process's role. The service's own are prefixed `cds_`; prom-client's
 * process and runtime metrics keep the names prom-client gives them (`process_*`,
 * `nodejs_*`), which the usual Node.js dashboards and alerts read. A plain class: the libs
 * that record into it take it optionally, so they run without it (tests, tools).
 */
export class Metrics {
  readonly registry = new Registry();
  readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  readonly decisions: Counter<'action' | 'content_type' | 'provider'>;
  readonly categoriesTriggered: Counter<'category'>;
  readonly providerDuration: Histogram<'provider' | 'modality'>;
  readonly providerErrors: Counter<'provider' | 'modality' | 'code'>;
  readonly appendDuration: Histogram<'topic'>;
  readonly appendErrors: Counter<'topic' | 'code'>;
  readonly webhookDeliveries: Counter<'outcome' | 'event_type'>;
  readonly jobs: Counter<'kind' | 'outcome'>;
  readonly logHandled: Counter<'handler' | 'outcome'>;

  constructor(role: string) {
    const registers = [this.registry];
    this.registry.setDefaultLabels({ role });
    collectDefaultMetrics({ register: this.registry });
    this.httpRequests = new Counter({
      name: 'cds_http_requests_total',
      help: 'HTTP requests answered, by method, route and status',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.httpDuration = new Histogram({
      name: 'cds_http_request_duration_seconds',
      help: 'HTTP request latency, by method, route and status',
      labelNames: ['method', 'route', 'status'],
      buckets: SECONDS,
      registers,
    });
    this.decisions = new Counter({
      name: 'cds_decisions_total',
      help: 'Decisions recorded, by action, content type and provider',
      labelNames: ['action', 'content_type', 'provider'],
      registers,
    });
    this.categoriesTriggered = new Counter({
      name: 'cds_decision_categories_triggered_total',
      help: 'Categories that triggered in recorded decisions',
      labelNames: ['category'],
      registers,
    });
    this.providerDuration = new Histogram({
      name: 'cds_provider_request_duration_seconds',
      help: 'Provider scoring latency, by provider and modality',
      labelNames: ['provider', 'modality'],
      buckets: SECONDS,
      registers,
    });
    this.providerErrors = new Counter({
      name: 'cds_provider_errors_total',
      help: 'Provider scoring failures, by provider, modality and error code',
      labelNames: ['provider', 'modality', 'code'],
      registers,
    });
    this.appendDuration = new Histogram({
      name: 'cds_event_log_append_duration_seconds',
      help: 'Durable appends to the event log (fsync or broker acknowledgement), by topic',
      labelNames: ['topic'],
      buckets: SECONDS,
      registers,
    });
    this.appendErrors = new Counter({
      name: 'cds_event_log_append_errors_total',
      help: 'Appends the event log refused or did not confirm, by topic',
      labelNames: ['topic', 'code'],
      registers,
    });
    this.webhookDeliveries = new Counter({
      name: 'cds_webhook_delivery_attempts_total',
      help: 'Webhook delivery attempts, by outcome and event type',
      labelNames: ['outcome', 'event_type'],
      registers,
    });
    this.jobs = new Counter({
      name: 'cds_jobs_total',
      help: 'Async batches and videos finished by the worker, by kind and outcome',
      labelNames: ['kind', 'outcome'],
      registers,
    });
    this.logHandled = new Counter({
      name: 'cds_log_events_handled_total',
      help: 'Events the log consumers were handed, by handler (consumer group) and outcome: applied, skipped, retry_later (a batch handed back)',
      labelNames: ['handler', 'outcome'],
      registers,
    });
  }

  /** A gauge whose values are read when Prometheus scrapes (queue depths, lag). */
  gauge<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    read: (set: (labels: Partial<Record<L, string>>, value: number) => void) => Promise<void> | void,
  ): void {
    new Gauge<L>({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        this.reset();
        await read((labels, value) => this.set(labels as never, value));
      },
    });
  }

  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
