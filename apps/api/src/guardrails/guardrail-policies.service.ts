import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Principal, principalIdentity } from '@cds/auth';
import { notFound, invalid } from '@cds/errors';
import { envelope, GuardrailPolicyData, GuardrailPolicyRolledBack, GuardrailPolicyUpdated } from '@cds/events';
import { clonePolicy, ProjectGuardrailPolicy, validateGuardrailPolicy } from '@cds/guardrails';
import { GuardrailPolicyVersionDoc, GuardrailReadModels, READ_MODELS } from '@cds/read-models';
import { EventWriter } from '@cds/write-path';
import { assertMayChangePolicy, projectOf } from './project-access';

/**
 * A project's guardrail policy is the newest of its versions; each PUT and each
 * rollback appends one (`guardrail.policy.updated` / `.rolled_back`), so the history
 * is the list of those events.
 */
@Injectable()
export class GuardrailPolicies {
  constructor(
    @Inject(READ_MODELS) private readonly readModels: GuardrailReadModels,
    private readonly writer: EventWriter,
  ) {}

  /** The stored policy of a project, or null when it has none (defaults apply). Only
   * validated policies reach the log, so its loose event type narrows to the engine's. */
  async current(tenantId: string, projectId: string): Promise<ProjectGuardrailPolicy | null> {
    return ((await this.readModels.getGuardrailPolicy(tenantId, projectId))?.policy as ProjectGuardrailPolicy | undefined) ?? null;
  }

  async get(p: Principal, requestedProject: unknown) {
    const projectId = projectOf(p, requestedProject, true);
    const doc = await this.readModels.getGuardrailPolicy(p.tenantId, projectId);
    if (!doc) throw noPolicy(projectId);
    return { projectId, policy: doc.policy };
  }

  async put(p: Principal, body: Record<string, unknown>) {
    const projectId = projectOf(p, body.projectId, true);
    assertMayChangePolicy(p, 'PUT /v1/agent/guardrails/policy');
    if (body.policy === undefined) throw invalid('INVALID_GUARDRAIL_POLICY', 'policy is required', 'send {projectId, policy}');
    const policy: GuardrailPolicyData = clonePolicy(validateGuardrailPolicy(body.policy));
    const event: GuardrailPolicyUpdated = envelope('guardrail.policy.updated', 1, p.tenantId, aggregateKey(p.tenantId, projectId), {
      projectId,
      version: randomUUID(),
      policy,
      updatedBy: principalIdentity(p),
      restoredVersion: null,
    });
    await this.writer.write('guardrails', [event], p.requestId);
    return { projectId, policy };
  }

  async history(p: Principal, requestedProject: unknown) {
    const projectId = projectOf(p, requestedProject, true);
    const versions = await this.readModels.listGuardrailPolicyHistory(p.tenantId, projectId);
    if (versions.length === 0) throw noPolicy(projectId);
    return { projectId, history: versions.map(historyEntry) };
  }

  /** Appends a new version equal to the named one; answers the new version. */
  async rollback(p: Principal, body: Record<string, unknown>) {
    const projectId = projectOf(p, body.projectId, true);
    assertMayChangePolicy(p, 'a policy rollback');
    const version = body.version;
    if (typeof version !== 'string' || version.length === 0 || version.length > 128) {
      throw invalid('INVALID_VERSION', 'version must be a version identifier from the policy history', 'send {projectId, version}');
    }
    const target = await this.readModels.getGuardrailPolicyVersion(p.tenantId, projectId, version);
    if (!target) throw notFound('GUARDRAIL_POLICY_VERSION_NOT_FOUND', 'No such policy version for this project', `version=${version}`);
    const event: GuardrailPolicyRolledBack = envelope('guardrail.policy.rolled_back', 1, p.tenantId, aggregateKey(p.tenantId, projectId), {
      projectId,
      version: randomUUID(),
      policy: target.policy,
      updatedBy: principalIdentity(p),
      restoredVersion: version,
    });
    await this.writer.write('guardrails', [event], p.requestId);
    const stored = await this.readModels.getGuardrailPolicyVersion(p.tenantId, projectId, event.data.version);
    return {
      projectId,
      version: event.data.version,
      restoredVersion: version,
      updatedAt: stored?.updatedAt ?? event.occurredAt,
      updatedBy: event.data.updatedBy,
      policy: target.policy,
    };
  }
}

/** Policy events of one project share a key, hence a partition: their log order is the history order. */
function aggregateKey(tenantId: string, projectId: string): string {
  return `${tenantId}/${projectId}`;
}

function historyEntry(d: GuardrailPolicyVersionDoc) {
  return { version: d.version, updatedAt: d.updatedAt, updatedBy: d.updatedBy, policy: d.policy, restoredVersion: d.restoredVersion };
}

function noPolicy(projectId: string) {
  return notFound(
    'GUARDRAIL_POLICY_NOT_FOUND',
    'This project has no guardrail policy',
    `project ${projectId} has no stored policy; the built-in defaults apply`,
  );
}
