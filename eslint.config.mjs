// ESLint: the habits of the house (STYLE.md). Type-aware rules on the TypeScript sources;
// the domain libs stay free of Nest, kafkajs, Elasticsearch and the file system.
import tseslint from 'typescript-eslint';

const DOMAIN_LIBS = ['libs/policy/src/**/*.ts', 'libs/guardrails/src/**/*.ts', 'libs/events/src/**/*.ts', 'libs/backoff/src/**/*.ts'];
const WEBHOOK_PURE = ['libs/webhooks/src/signature.ts', 'libs/webhooks/src/retry-schedule.ts', 'libs/webhooks/src/delivery-plan.ts', 'libs/webhooks/src/webhook-payloads.ts', 'libs/webhooks/src/ip-address.ts', 'libs/webhooks/src/ip-range.ts'];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'packages/*/dist/**', 'bench/results/**', '**/*.js', '**/*.mjs'] },
  {
    files: ['apps/**/*.ts', 'libs/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts', 'packages/*/src/**/*.ts', 'packages/*/test/**/*.ts'],
    languageOptions: { parser: tseslint.parser, parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
    },
  },
  {
    files: [...DOMAIN_LIBS, ...WEBHOOK_PURE],
    ignores: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.fixtures.ts', '**/corpus/**'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['@nestjs/*'], message: 'domain libs are plain functions and types: no Nest' },
          { group: ['kafkajs', '@elastic/*'], message: 'domain libs do no I/O: no Kafka or Elasticsearch clients' },
          { group: ['fs', 'node:fs', 'fs/promises', 'node:fs/promises'], message: 'domain libs do no I/O: no file system' },
        ],
      }],
    },
  },
);
