import { Inject, Injectable } from '@nestjs/common';
import { Principal } from '@cds/auth';
import { invalid } from '@cds/errors';
import { envelope, PolicySaved } from '@cds/events';
import { ParsedPolicy, parsePolicyYaml } from '@cds/policy';
import { PROVIDER_REGISTRY, ProviderRegistry } from '@cds/providers';
import { EventWriter } from '@cds/write-path';
import { PolicyCatalog } from '@cds/checks';

@Injectable()
export class PoliciesService {
  constructor(
    private readonly catalog: PolicyCatalog,
    private readonly writer: EventWriter,
    @Inject(PROVIDER_REGISTRY) private readonly providers: ProviderRegistry,
  ) {}

  /** Create or update. Invalid YAML or rules throw a 422 naming the line. */
  async save(p: Principal, policyId: string, yamlContent: string) {
    const parsed = parsePolicyYaml(yamlContent);
    this.assertProvidersConfigured(parsed);
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
    await this.writer.write('policies', [event], p.requestId);
    const saved = await this.catalog.resolve(p.tenantId, policyId);
    return { created: version === 1, policy: PolicyCatalog.view(saved) };
  }

  /** A policy routing to a provider this deployment does not have is refused at save
   * time (its checks could never be scored as written). */
  private assertProvidersConfigured(policy: ParsedPolicy): void {
    const named = [...policy.rules.map((r) => r.provider), policy.provider, ...(policy.fallback ?? [])].filter((n): n is string => n !== undefined);
    const missing = [...new Set(named)].filter((name) => !this.providers.has(name));
    if (missing.length === 0) return;
    throw invalid(
      'PROVIDER_NOT_CONFIGURED',
      `Provider ${missing.map((m) => `"${m}"`).join(', ')} is not configured`,
      `the policy names ${missing.join(', ')}; configured providers: ${this.providers.names().join(', ')} (see GET /v1/providers)`,
    );
  }

  async get(p: Principal, policyId: string) {
    return PolicyCatalog.view(await this.catalog.resolve(p.tenantId, policyId));
  }

  async list(p: Principal) {
    return (await this.catalog.list(p.tenantId)).map(PolicyCatalog.view);
  }
}
