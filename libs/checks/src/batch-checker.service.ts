import { Injectable, Logger } from '@nestjs/common';
import { Principal } from '@cds/auth';
import { AppConfig } from '@cds/config';
import { invalid } from '@cds/errors';
import { BatchItemInput, BatchItemResult } from '@cds/events';
import { ContentCheck } from './content-check.service';
import { CheckRequestDto, CONTENT_TYPES } from './check-request';
import { PolicyCatalog } from './policy-catalog.service';
import { checkBatchItems } from './batch-items';

/**
 * Checks the items of a batch through the one check path (ContentCheck: the same
 * scoring, policy, decision event and idempotency as POST /v1/check), BATCH_CONCURRENCY
 * at a time. An item that fails gets `{id, error: {code, message, details}}`; the
 * others are unaffected.
 */
@Injectable()
export class BatchChecker {
  private readonly logger = new Logger('BatchChecker');

  constructor(
    private readonly checks: ContentCheck,
    private readonly catalog: PolicyCatalog,
    private readonly config: AppConfig,
  ) {}

  assertSize(count: number, max: number): void {
    if (count > max) throw invalid('BATCH_TOO_LARGE', 'Too many items in the batch', `at most ${max} items per batch (got ${count})`);
  }

  /** 404 POLICY_NOT_FOUND for the whole batch when its policy does not exist. */
  async assertPolicy(tenantId: string, policyId: string): Promise<void> {
    await this.catalog.resolve(tenantId, policyId);
  }

  /** `requestIdOf` makes each item's decision idempotent (an async batch rerun after a crash
   * answers the decisions already made); `rethrowUnavailable`: see checkBatchItems. */
  check(
    principal: Principal,
    policyId: string,
    items: readonly BatchItemInput[],
    o: { requestIdOf?: (index: number) => string; rethrowUnavailable?: boolean } = {},
  ): Promise<BatchItemResult[]> {
    return checkBatchItems(
      items,
      (item, i) => {
        const request = Object.assign(new CheckRequestDto(), {
          content: item.content,
          policyId,
          contentType: item.contentType as CheckRequestDto['contentType'],
          metadata: item.metadata,
          requestId: o.requestIdOf?.(i),
        });
        return this.checks.check(principal, request, null);
      },
      {
        concurrency: this.config.BATCH_CONCURRENCY,
        contentTypes: CONTENT_TYPES,
        rethrowUnavailable: o.rethrowUnavailable,
        onUnexpected: (item, err) =>
          this.logger.error({ msg: `batch item ${item.id} failed: ${(err as Error)?.stack ?? String(err)}`, requestId: principal.requestId }),
      },
    );
  }
}
