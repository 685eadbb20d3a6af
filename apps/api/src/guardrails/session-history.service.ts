import { Inject, Injectable } from '@nestjs/common';
import { SessionAction, SessionFact } from '@cds/guardrails';
import { GuardrailReadModels, READ_MODELS } from '@cds/read-models';

/** How many earlier actions of a session its sequence rules look at (the newest ones). */
export const SESSION_HISTORY_LIMIT = 200;

/**
 * What a session did before, read from its decisions on the log (their read model), never
 * from a replica's memory. The read waits until the projection holds the `guardrails`
 * topic up to its end as it was when the request arrived, so every action another replica
 * (or this one before a crash) acknowledged is in it.
 */
@Injectable()
export class SessionHistory {
  constructor(@Inject(READ_MODELS) private readonly readModels: GuardrailReadModels) {}

  /** The session's earlier actions, oldest first. */
  async of(tenantId: string, sessionId: string): Promise<SessionAction[]> {
    const docs = await this.readModels.listSessionActions(tenantId, sessionId, SESSION_HISTORY_LIMIT);
    return docs.reverse().map((d) => ({
      decisionId: d.decisionId,
      actionType: d.actionType,
      command: d.command,
      targetPath: d.targetPath,
      categories: d.categories,
      facts: d.facts as SessionFact[],
    }));
  }
}
