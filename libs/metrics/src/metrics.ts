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
    const counter = <L extends string>(name: string, help: string, labelNames: L[]) => new Counter<L>({ name, help, labelNames, registers });
    const histogram = <L extends string>(name: string, help: string, labelNames: L[]) =>
      new Histogram<L>({ name, help, labelNames, buckets: SECONDS, registers });
    this.httpRequests = counter('cds_http_requests_total', 'HTTP requests answered, by method, route and status', ['method', 'route', 'status']);
    this.httpDuration = histogram('cds_http_request_duration_seconds', 'HTTP request latency, by method, route and status', ['method', 'route', 'status']);
    this.decisions = counter('cds_decisions_total', 'Decisions recorded, by action, content type and provider', ['action', 'content_type', 'provider']);
    this.categoriesTriggered = counter('cds_decision_categories_triggered_total', 'Categories that triggered in recorded decisions', ['category']);
    this.providerDuration = histogram('cds_provider_request_duration_seconds', 'Provider scoring latency, by provider and modality', ['provider', 'modality']);
    this.providerErrors = counter('cds_provider_errors_total', 'Provider scoring failures, by provider, modality and error code', [
      'provider',
      'modality',
      'code',
    ]);
    this.appendDuration = histogram('cds_event_log_append_duration_seconds', 'Durable appends to the event log (fsync or broker acknowledgement), by topic', [
      'topic',
    ]);
    this.appendErrors = counter('cds_event_log_append_errors_total', 'Appends the event log refused or did not confirm, by topic', ['topic', 'code']);
    this.webhookDeliveries = counter('cds_webhook_delivery_attempts_total', 'Webhook delivery attempts, by outcome and event type', ['outcome', 'event_type']);
    this.jobs = counter('cds_jobs_total', 'Async batches and videos finished by the worker, by kind and outcome', ['kind', 'outcome']);
    this.logHandled = counter(
      'cds_log_events_handled_total',
      'Events the log consumers were handed, by handler (consumer group) and outcome: applied, skipped, retry_later (a batch handed back)',
      ['handler', 'outcome'],
    );
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
