// ESLint: the habits of the house (STYLE.md). Type-aware rules on the TypeScript sources;
// the domain libs stay free of Nest, kafkajs, Elasticsearch and the file system.
import tseslint from 'typescript-eslint';

const WEBHOOK_PURE = ['libs/webhooks/src/signature.ts', 'libs/webhooks/src/delivery-plan.ts', 'libs/webhooks/src/webhook-payloads.ts'];
const EGRESS_PURE = ['libs/egress/src/ip-address.ts', 'libs/egress/src/ip-range.ts'];

const DOMAIN_PATTERNS = [
  { group: ['@nestjs/*'], message: 'domain libs are plain functions and types: no Nest' },
  { group: ['kafkajs', '@elastic/*'], message: 'domain libs do no I/O: no Kafka or Elasticsearch clients' },
  { group: ['fs', 'node:fs', 'fs/promises', 'node:fs/promises'], message: 'domain libs do no I/O: no file system' },
];

// Which libs each lib may import (`@cds/<lib>`), outside its tests: the layers of the house,
// ground floor first. Anything else is an error, so a new upward or sideways import is a
// decision made here, not by accident.
const LIB_DEPS = {
  errors: [],
  events: [],
  auth: [],
  logging: [],
  metrics: [],
  tracing: [],
  validation: [],
  testing: ['errors'],
  backoff: ['errors'],
  egress: ['errors'],
  policy: ['errors', 'events'],
  guardrails: ['errors'],
  webhooks: ['egress', 'errors', 'events'],
  config: ['backoff'],
  probes: ['metrics', 'tracing'],
  'blob-store': ['config', 'errors'],
  media: ['egress', 'errors'],
  'event-log': ['backoff', 'config', 'events'],
  'read-models': ['backoff', 'config', 'errors', 'event-log', 'events', 'threads', 'tracing'],
  'write-path': ['errors', 'event-log', 'events', 'metrics', 'tracing'],
  providers: ['backoff', 'config', 'errors', 'events', 'guardrails', 'metrics', 'policy', 'threads'],
  projector: ['config', 'event-log', 'events', 'metrics', 'read-models'],
  'webhook-dispatch': ['backoff', 'config', 'egress', 'event-log', 'events', 'metrics', 'read-models', 'webhooks'],
  checks: [
    'auth',
    'blob-store',
    'config',
    'errors',
    'event-log',
    'events',
    'media',
    'metrics',
    'policy',
    'providers',
    'read-models',
    'tracing',
    'validation',
    'write-path',
  ],
  bootstrap: ['blob-store', 'checks', 'config', 'event-log', 'metrics', 'providers', 'read-models', 'webhook-dispatch'],
};
const DOMAIN_LIB_NAMES = ['policy', 'guardrails', 'events', 'backoff'];
const TESTS = ['**/*spec.ts', '**/*.fixtures.ts'];
const layerPatterns = (lib) => {
  const others = Object.keys(LIB_DEPS).filter((l) => l !== lib && !LIB_DEPS[lib].includes(l));
  return [
    {
      group: others.map((l) => `@cds/${l}`),
      message: `libs/${lib} may import only ${LIB_DEPS[lib].map((l) => '@cds/' + l).join(', ') || 'no other lib'} (eslint.config.mjs, LIB_DEPS)`,
    },
  ];
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'packages/*/dist/**', 'bench/results/**', '**/*.js', '**/*.mjs'] },
  // One program for every file (the root tsconfig includes them all, packages/sdk too):
  // the project service built a second one for packages/sdk's own tsconfig, ~20 % more time.
  {
    files: ['apps/**/*.ts', 'libs/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts', 'packages/*/src/**/*.ts', 'packages/*/test/**/*.ts'],
    languageOptions: { parser: tseslint.parser, parserOptions: { project: './tsconfig.json', tsconfigRootDir: import.meta.dirname } },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
    },
  },
  // one block per lib: its layer, and for the domain libs no Nest, I/O clients or fs
  // (their corpus files may read fixtures from disk)
  ...Object.keys(LIB_DEPS).map((lib) => ({
    files: [`libs/${lib}/src/**/*.ts`],
    ignores: TESTS,
    rules: { 'no-restricted-imports': ['error', { patterns: [...layerPatterns(lib), ...(DOMAIN_LIB_NAMES.includes(lib) ? DOMAIN_PATTERNS : [])] }] },
  })),
  {
    files: ['libs/guardrails/src/**/corpus/**'],
    ignores: TESTS,
    rules: { 'no-restricted-imports': ['error', { patterns: layerPatterns('guardrails') }] },
  },
  {
    files: WEBHOOK_PURE,
    rules: { 'no-restricted-imports': ['error', { patterns: [...layerPatterns('webhooks'), ...DOMAIN_PATTERNS] }] },
  },
  {
    files: EGRESS_PURE,
    rules: { 'no-restricted-imports': ['error', { patterns: [...layerPatterns('egress'), ...DOMAIN_PATTERNS] }] },
  },
);
