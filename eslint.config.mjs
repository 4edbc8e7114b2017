import { defineConfig, globalIgnores } from 'eslint/config';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTypescript from 'eslint-config-next/typescript';

export default defineConfig([
  ...nextVitals,
  ...nextTypescript,
  globalIgnores(['.next/**', 'next-env.d.ts', 'lib/generated/**', 'data/**', 'dist/**', 'test-results/**', 'node_modules/**']),
]);
