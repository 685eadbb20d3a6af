import { Inject, Injectable } from '@nestjs/common';
import { PinnedSkill } from '@cds/guardrails';
import { GuardrailReadModels, READ_MODELS } from '@cds/read-models';

/**
 * The vetting a project's skill is pinned to, read from the decisions on the log (their
 * read model). The read waits for the projection to reach the log's end as it was when
 * asked, like every query, so a vetting acknowledged by any replica is seen by the next.
 */
@Injectable()
export class SkillPins {
  constructor(@Inject(READ_MODELS) private readonly readModels: GuardrailReadModels) {}

  async pinned(tenantId: string, projectId: string | null, skillId: string): Promise<PinnedSkill | null> {
    const doc = await this.readModels.getSkillPin(tenantId, projectId, skillId);
    if (!doc?.skill) return null;
    const { prompt, requestedPermissions } = doc.request;
    return {
      decisionId: doc.decisionId,
      vettedAt: doc.timestamp,
      contentHash: doc.skill.contentHash,
      prompt: typeof prompt === 'string' ? prompt : '',
      requestedPermissions: Array.isArray(requestedPermissions) ? requestedPermissions.filter((x): x is string => typeof x === 'string') : [],
    };
  }
}
