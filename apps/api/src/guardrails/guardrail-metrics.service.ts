import { Inject, Injectable } from '@nestjs/common';
import { Principal } from '@cds/auth';
import { invalid } from '@cds/errors';
import { GuardrailReadModels, READ_MODELS } from '@cds/read-models';
import { projectOf } from './project-access';

export const DEFAULT_METRICS_DAYS = 7;
export const MAX_METRICS_DAYS = 365;
const DAY_MS = 86_400_000;

/**
 * Counts of a project's guardrail decisions over the last `days` UTC calendar days,
 * today included, with one bucket per day (zeros included), oldest first.
 */
@Injectable()
export class GuardrailMetrics {
  constructor(@Inject(READ_MODELS) private readonly readModels: GuardrailReadModels) {}

  async metrics(p: Principal, requestedProject: unknown, rawDays: unknown, now = new Date()) {
    const projectId = projectOf(p, requestedProject, true);
    const days = parseDays(rawDays);
    const tomorrow = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + DAY_MS;
    const from = tomorrow - days * DAY_MS;
    const counts = await this.readModels.guardrailCounts(p.tenantId, projectId, new Date(from).toISOString(), new Date(tomorrow).toISOString());
    const byDate = new Map(counts.daily.map((d) => [d.date, d]));
    const daily = [];
    for (let t = from; t < tomorrow; t += DAY_MS) {
      const date = new Date(t).toISOString().slice(0, 10);
      const d = byDate.get(date);
      daily.push({ date, total: d?.total ?? 0, blocked: d?.blocked ?? 0, approvalRequired: d?.approvalRequired ?? 0 });
    }
    return {
      projectId,
      days,
      total: counts.total,
      blocked: counts.blocked,
      approvalRequired: counts.approvalRequired,
      blockRate: rate(counts.blocked, counts.total),
      approvalRate: rate(counts.approvalRequired, counts.total),
      skillVetting: counts.skillVetting,
      runtimeAuthorization: counts.runtimeAuthorization,
      daily,
    };
  }
}

function parseDays(raw: unknown): number {
  if (raw === undefined || raw === '') return DEFAULT_METRICS_DAYS;
  const n = typeof raw === 'string' && /^\d{1,4}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_METRICS_DAYS) {
    throw invalid('INVALID_DAYS', `days must be an integer from 1 to ${MAX_METRICS_DAYS}`, `got ${JSON.stringify(raw)}`);
  }
  return n;
}

/** A fraction in [0, 1]; 0 when there is nothing to divide. */
function rate(part: number, total: number): number {
  return total === 0 ? 0 : part / total;
}
