import { RunningService, startService } from '@cds/testing';

/** Every operation of ../shared/spec/service-interface.md, as method and path template. */
const SPEC_OPERATIONS = [
  'post /v1/check',
  'post /v1/check/dry-run',
  'post /v1/check/multimodal',
  'post /v1/batch/check',
  'post /v1/batch/check/async',
  'post /v1/video/check',
  'post /v1/video/upload',
  'get /v1/video/status/{decisionId}',
  'get /v1/video/result/{decisionId}',
  'post /v1/policies',
  'get /v1/policies/{policyId}',
  'get /v1/policies',
  'get /v1/decisions/{decisionId}',
  'get /v1/decisions',
  'post /v1/decisions/{decisionId}/replay',
  'get /v1/decisions/{decisionId}/curl',
  'post /v1/agent/guardrails/skill-vetting',
  'post /v1/agent/guardrails/action-authorize',
  'get /v1/agent/guardrails/policy',
  'put /v1/agent/guardrails/policy',
  'get /v1/agent/guardrails/policy/history',
  'post /v1/agent/guardrails/policy/rollback',
  'get /v1/agent/guardrails/metrics',
  'post /v1/webhooks',
  'get /v1/webhooks',
  'get /v1/webhooks/{webhookId}',
  'patch /v1/webhooks/{webhookId}',
  'delete /v1/webhooks/{webhookId}',
  'post /v1/webhooks/{webhookId}/test',
  'get /v1/webhooks/{webhookId}/deliveries',
];

type Operation = {
  security?: unknown[];
  responses: Record<string, { content?: Record<string, { schema?: unknown }>; headers?: Record<string, unknown> }>;
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema?: unknown }> };
};

describe('API description (GET /v1/openapi.json, /docs)', () => {
  let svc: RunningService;
  let doc: {
    openapi: string;
    paths: Record<string, Record<string, Operation>>;
    components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
  };

  beforeAll(async () => {
    svc = await startService();
    const res = await fetch(`${svc.baseUrl}/v1/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    doc = (await res.json()) as typeof doc;
  });
  afterAll(() => svc?.stop());

  const operations = () => Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ id: `${method} ${path}`, op })));

  it('is an OpenAPI 3 document, served without a key, with every operation of the spec', () => {
    expect(doc.openapi).toMatch(/^3\./);
    const ids = new Set(operations().map((o) => o.id));
    expect(SPEC_OPERATIONS.filter((o) => !ids.has(o))).toEqual([]);
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('declares the key, the error bodies and the rate-limit headers on every keyed operation', () => {
    const keyed = operations().filter(({ id }) => id.includes(' /v1/') && !id.includes('/evidence/'));
    expect(keyed.length).toBeGreaterThanOrEqual(SPEC_OPERATIONS.length);
    for (const { id, op } of keyed) {
      expect({ id, security: op.security }).toEqual({ id, security: [{ apiKey: [] }] });
      for (const status of ['401', '403', '429', '503']) expect({ id, status, has: status in op.responses }).toEqual({ id, status, has: true });
      expect(op.responses['429'].content?.['application/json'].schema).toEqual({ $ref: '#/components/schemas/RateLimited' });
      expect(op.responses['401'].content?.['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorBody' });
      const success = Object.entries(op.responses).find(([s]) => s.startsWith('2'))!;
      expect({ id, headers: Object.keys(success[1].headers ?? {}) }).toEqual({
        id,
        headers: ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'],
      });
    }
  });

  it('describes request bodies from the DTOs validation rules, and query DTOs as parameters', () => {
    const check = doc.components.schemas.CheckRequestDto as { required: string[]; properties: Record<string, { enum?: string[]; pattern?: string }> };
    expect(check.required).toEqual(['content', 'policyId']);
    expect(check.properties.contentType.enum).toEqual(['text', 'image', 'video']);
    expect(check.properties.policyId.pattern).toBeDefined();
    const upload = doc.paths['/v1/video/upload'].post.requestBody!.content['multipart/form-data'].schema as { required: string[]; properties: object };
    expect(upload.required).toEqual(['video', 'policyId']);
    expect(Object.keys(upload.properties).sort()).toEqual(
      [
        'video',
        'policyId',
        'webhookUrl',
        'maxDurationSeconds',
        'language',
        'metadata',
        'extractionStrategy',
        'frameInterval',
        'maxFrames',
        'mode',
        'stopOnBlock',
      ].sort(),
    );
    const list = doc.paths['/v1/decisions'].get.parameters!.map((p) => `${p.in}:${p.name}`);
    expect(list).toEqual(expect.arrayContaining(['query:limit', 'query:offset', 'query:action', 'query:policyId', 'query:category', 'query:q']));
    // The idempotency header once, optional, not Nest's own required copy.
    const headers = doc.paths['/v1/check'].post.parameters!.filter((p) => p.in === 'header').map((p) => p.name);
    expect(headers).toEqual(['Idempotency-Key']);
  });

  it('serves Swagger UI at /docs', async () => {
    const res = await fetch(`${svc.baseUrl}/docs`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('swagger');
  });
});
