import { Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Principal } from '@cds/auth';
import { AppConfig } from '@cds/config';
import { DomainError, invalid } from '@cds/errors';
import { BatchItemInput, BatchItemResult } from '@cds/events';
import { CheckContentCommand } from '../checks/check-content.command';
import { CheckRequestDto, CONTENT_TYPES } from '../checks/check.dto';
import { PolicyCatalog } from '../policies/policy-catalog.service';
import { mapBounded } from './bounded-pool';

/**
 * Checks the items of a batch through the one check path (CheckContentCommand: the same
 * scoring, policy, decision event and idempotency as POST /v1/check), BATCH_CONCURRENCY
 * at a time. An item that fails gets `{id, error: {code, message, details}}`; the
 * others are unaffected.
 */
@Injectable()
export class BatchChecker {
  private readonly logger = new Logger('BatchChecker');

  constructor(private readonly commands: CommandBus, private readonly catalog: PolicyCatalog, private readonly config: AppConfig) {}

  assertSize(count: number, max: number): void {
    if (count > max) throw invalid('BATCH_TOO_LARGE', 'Too many items in the batch', `at most ${max} items per batch (got ${count})`);
  }

  /** 404 POLICY_NOT_FOUND for the whole batch when its policy does not exist. */
  async assertPolicy(tenantId: string, policyId: string): Promise<void> {
    await this.catalog.resolve(tenantId, policyId);
  }

  /** `requestIdOf` makes each item's decision idempotent (an async batch rerun after a crash
   * answers the decisions already made). */
  check(principal: Principal, policyId: string, items: readonly BatchItemInput[], requestIdOf?: (index: number) => string): Promise<BatchItemResult[]> {
    return mapBounded(items, this.config.BATCH_CONCURRENCY, (item, i) => this.checkOne(principal, policyId, item, requestIdOf?.(i)));
  }

  private async checkOne(principal: Principal, policyId: string, item: BatchItemInput, requestId?: string): Promise<BatchItemResult> {
    try {
      if (item.content.length === 0) throw invalid('VALIDATION_ERROR', 'Invalid request parameters', 'content should not be empty');
      if (item.contentType !== undefined && !(CONTENT_TYPES as readonly string[]).includes(item.contentType)) {
        throw invalid('VALIDATION_ERROR', 'Invalid request parameters', `contentType must be one of ${CONTENT_TYPES.join(', ')}`);
      }
      const request = Object.assign(new CheckRequestDto(), {
        content: item.content, policyId, contentType: item.contentType as CheckRequestDto['contentType'], metadata: item.metadata, requestId,
      });
      const d = await this.commands.execute(new CheckContentCommand(principal, request, null));
      return { id: item.id, safe: d.safe, action: d.action as 'allow' | 'warn' | 'flag' | 'block', decisionId: d.decisionId };
    } catch (err) {
      if (err instanceof DomainError) return { id: item.id, error: { code: err.code, message: err.message, details: err.details } };
      this.logger.error(`batch item ${item.id} failed: ${(err as Error)?.stack ?? String(err)}`);
      return { id: item.id, error: { code: 'INTERNAL_ERROR', message: 'Internal server error', details: 'the item could not be checked; retry it' } };
    }
  }
}
