import { Inject, Injectable } from '@nestjs/common';
import { notFound } from '@cds/errors';
import { tracing } from '@cds/tracing';
import { ParsedPolicy, parsePolicyYaml } from '@cds/policy';
import { LogEnds, LogVersionedCache, PolicyDoc, PolicyReadModels, READ_MODELS } from '@cds/read-models';
import { BUILTIN_POLICIES } from './builtin-policies';
import { LRUCache } from 'lru-cache';

export interface ResolvedPolicy {
  policyId: string;
  version: number;
  builtIn: boolean;
  parsed: ParsedPolicy;
  doc: PolicyDoc | null;
}

const EPOCH = new Date(0).toISOString();

/** Finds the policy a tenant means by an id: its own, else a built-in one. Parsed
 * policies are cached by (tenant, id, version), so a check does not re-read YAML. */
@Injectable()
export class PolicyCatalog {
  /** parsed YAML by tenant, policy and version: a version never changes, so nothing expires */
  private readonly parsed = new LRUCache<string, ParsedPolicy>({ max: 10_000 });
  private readonly builtins = new Map<string, ParsedPolicy>(Object.entries(BUILTIN_POLICIES).map(([id, yaml]) => [id, parsePolicyYaml(yaml)]));

  /** Stored policies (and the absence of one: a built-in id) kept while the policies topic
   * does not move (a save anywhere retires them). */
  private readonly docs: LogVersionedCache<PolicyDoc>;

  constructor(
    @Inject(READ_MODELS) private readonly readModels: PolicyReadModels,
    ends: LogEnds,
  ) {
    this.docs = new LogVersionedCache(ends, 'policies', { keepMisses: true });
  }

  resolve(tenantId: string, policyId: string): Promise<ResolvedPolicy> {
    const traces = tracing();
    return traces.enabled
      ? traces.span('policy.resolve', { 'cds.policy_id': policyId }, () => this.resolveNow(tenantId, policyId))
      : this.resolveNow(tenantId, policyId);
  }

  private async resolveNow(tenantId: string, policyId: string): Promise<ResolvedPolicy> {
    const doc = await this.docs.get(`${tenantId}\u0000${policyId}`, () => this.readModels.getPolicy(tenantId, policyId));
    if (doc) return { policyId, version: doc.version, builtIn: false, parsed: this.parse(doc), doc };
    const builtin = this.builtins.get(policyId);
    if (builtin) return { policyId, version: 0, builtIn: true, parsed: builtin, doc: null };
    throw notFound('POLICY_NOT_FOUND', 'Policy not found', `no policy "${policyId}" in this tenant`);
  }

  /** Stored policies of the tenant, then the built-ins it has not overridden. */
  async list(tenantId: string): Promise<ResolvedPolicy[]> {
    const docs = await this.readModels.listPolicies(tenantId);
    const own = docs.map((doc) => ({ policyId: doc.policyId, version: doc.version, builtIn: false, parsed: this.parse(doc), doc }));
    const ids = new Set(docs.map((d) => d.policyId));
    const builtins = [...this.builtins]
      .filter(([id]) => !ids.has(id))
      .map(([policyId, parsed]) => ({ policyId, version: 0, builtIn: true, parsed, doc: null }));
    return [...own, ...builtins];
  }

  isBuiltIn(policyId: string): boolean {
    return this.builtins.has(policyId);
  }

  /** The Policy resource of the spec, plus version bookkeeping. */
  static view(p: ResolvedPolicy) {
    return {
      policyId: p.policyId,
      name: p.parsed.name,
      categories: p.parsed.categories,
      version: p.version,
      builtIn: p.builtIn,
      yamlContent: p.doc?.yamlContent ?? BUILTIN_POLICIES[p.policyId],
      createdAt: p.doc?.createdAt ?? EPOCH,
      updatedAt: p.doc?.updatedAt ?? EPOCH,
    };
  }

  private parse(doc: PolicyDoc): ParsedPolicy {
    const k = `${doc.tenantId}\u0000${doc.policyId}\u0000${doc.version}`;
    let p = this.parsed.get(k);
    if (!p) {
      p = parsePolicyYaml(doc.yamlContent);
      this.parsed.set(k, p);
    }
    return p;
  }
}
