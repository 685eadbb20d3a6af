import { Injectable } from '@nestjs/common';
import { Principal } from '@cds/auth';
import { envelope, PolicySaved } from '@cds/events';
import { parsePolicyYaml } from '@cds/policy';
import { EventWriter } from '@cds/write-path';
import { PolicyCatalog } from '@cds/checks';

@Injectable()
export class PoliciesService {
  constructor(
    private readonly catalog: PolicyCatalog,
    private readonly writer: EventWriter,
  ) {}

  /** Create or update. Invalid YAML or rules throw a 422 naming the line. */
  async save(p: Principal, policyId: string, yamlContent: string) {
    const parsed = parsePolicyYaml(yamlContent);
    const previous = await this.catalog.resolve(p.tenantId, policyId).catch(() => null);
    const version = previous && !previous.builtIn ? previous.version + 1 : 1;
    const event: PolicySaved = envelope('policy.saved', 1, p.tenantId, policyId, {
      policyId,
      name: parsed.name,
      version,
      yamlContent,
      categories: parsed.categories,
      savedBy: p.keyId,
    });
    await this.writer.write('policies', [event]);
    const saved = await this.catalog.resolve(p.tenantId, policyId);
    return { created: version === 1, policy: PolicyCatalog.view(saved) };
  }

  async get(p: Principal, policyId: string) {
    return PolicyCatalog.view(await this.catalog.resolve(p.tenantId, policyId));
  }

  async list(p: Principal) {
    return (await this.catalog.list(p.tenantId)).map(PolicyCatalog.view);
  }
}
