import { defineConfig, globalIgnores } from 'eslint/config';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTypescript from 'eslint-config-next/typescript';

export default defineConfig([
  ...nextVitals,
  ...nextTypescript,
  {
    rules: {
      // `const { secret: _secret, ...rest } = x` leaves a field out on purpose; the underscore says so
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // tests read JSON answers field by field; typing every body would restate the OpenAPI document
    files: ['test/**', 'e2e/**', 'plugins/*/test/**', '**/*.test.ts', 'scripts/bench*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  // what .gitignore leaves out: builds, generated code, data
  globalIgnores([
    '.next*/**',
    'next-env.d.ts',
    'lib/generated/**',
    'data/**',
    'dist/**',
    'client/dist/**',
    // each plug-in's build; its own node_modules (ignored by default) hold its platform's packages
    'plugins/*/dist/**',
    // written by openapi-typescript (npm run client:types)
    'client/src/openapi.ts',
    'test-results/**',
    'playwright-report/**',
    '.sandbox-payments/**',
  ]),
]);
