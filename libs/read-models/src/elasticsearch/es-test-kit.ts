import { Client } from '@elastic/elasticsearch';
import { randomBytes } from 'node:crypto';
import * as net from 'node:net';
import { DomainEvent, envelope, GuardrailDecidedV1, Topic } from '@cds/events';
import { ProjectedEvent } from '../read-models.port';
import { ElasticsearchReadModels } from './elasticsearch-read-models.adapter';

/** Helpers of the Elasticsearch integration specs (a real node, no mocks). */
export const ES_URL = process.env.ELASTICSEARCH_URL ?? 'http://127.0.0.1:9200';

export const QUIET = { log: () => undefined, warn: () => undefined, error: () => undefined };

/** `es-<test run>-<random>`: unique per file, and swept with the run's other leftovers
 * (scripts/infra/delete-test-data.js es-<run>-) should a file die before its cleanup. */
export const uniquePrefix = () => `es-${process.env.CDS_TEST_RUN ?? 'manual'}-${randomBytes(5).toString('hex')}`;

export const openRm = (indexPrefix: string, node = ES_URL) => ElasticsearchReadModels.open({ node, indexPrefix, logger: QUIET });

/** Every index of a test prefix (the random suffix keeps other prefixes out of the pattern). */
export async function deletePrefix(prefix: string): Promise<void> {
  const client = new Client({ node: ES_URL });
  await client.indices.delete({ index: `${prefix}-*`, ignore_unavailable: true, allow_no_indices: true });
  await client.close();
}

export async function indicesOf(prefix: string): Promise<string[]> {
  const client = new Client({ node: ES_URL });
  const rows = await client.cat.indices({ index: `${prefix}-*`, format: 'json', h: 'index' });
  await client.close();
  return rows.map((r) => r.index!).sort();
}

export const at = (topic: Topic, offset: number, event: DomainEvent, partition = 0): ProjectedEvent => ({ topic, partition, offset, event });

export { decisionCreated as decision } from '../decision-event.fixtures';

export const GUARDRAIL_POLICY = { sensitivePathPrefixes: ['/etc'], networkAllowlist: [], blockShellPatterns: [], requireApprovalScore: 50 };

export function guardrailDecided(
  tenantId: string,
  projectId: string,
  decisionId: string,
  when: string,
  action: GuardrailDecidedV1['action'],
  requiresApproval: boolean,
  kind: GuardrailDecidedV1['kind'] = 'action_authorization',
): DomainEvent {
  return envelope(
    'guardrail.decided',
    1,
    tenantId,
    decisionId,
    {
      decisionId,
      projectId,
      kind,
      action,
      riskScore: 10,
      reasons: ['r'],
      categories: ['c'],
      requiresApproval,
      request: { tool: 'shell', nested: { a: [1, { b: 2 }] } },
      policy: GUARDRAIL_POLICY,
      policyOrigin: {},
      decidedBy: 'key:k',
      latency: 0.1,
    },
    new Date(when),
  );
}

export function guardrailPolicyVersion(
  tenantId: string,
  projectId: string,
  version: string,
  score: number,
  restoredVersion: string | null = null,
): DomainEvent {
  return envelope(restoredVersion ? 'guardrail.policy.rolled_back' : 'guardrail.policy.updated', 1, tenantId, `${tenantId}/${projectId}`, {
    projectId,
    version,
    policy: { ...GUARDRAIL_POLICY, requireApprovalScore: score },
    updatedBy: 'key:k',
    restoredVersion,
  });
}

/** A TCP relay to the node that the test can cut, to see the node go away. */
export async function relayTo(url: string, listenPort = 0): Promise<{ url: string; port: number; cut(): Promise<void> }> {
  const target = new URL(url);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => s.destroy());
      s.on('close', () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((r) => server.listen(listenPort, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    cut: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
