import { defineConfig, globalIgnores } from 'eslint/config';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTypescript from 'eslint-config-next/typescript';

// The layers of the code, lowest first (CONTRIBUTING.md, "Layers"): a file imports from its own layer and the ones
// below it, never from one above. Globs are of the repository's paths; eslint-plugin-import (which
// eslint-config-next brings and registers as `import`) resolves each import, `@/` and relative alike.
const EDGE_FOLDERS = ['http', 'dashboard', 'server', 'server-actions', 'auth', 'jobs'];
// the vocabulary each resource's operations.ts and objects.ts declare the API with; the rest of lib/openapi
// builds the document from those declarations
const OPENAPI_VOCABULARY = ['operation', 'object-fields', 'error-codes'];
const LAYERS = [
  { name: 'lib/core', files: ['lib/core/**', 'lib/generated/**'] },
  { name: 'the process settings (lib/*.ts)', files: ['lib/*.ts'] },
  { name: 'lib/db', files: ['lib/db/**'] },
  {
    name: 'a resource (lib/<resource>)',
    files: [
      `lib/!(${['core', 'generated', 'db', 'openapi', ...EDGE_FOLDERS].join('|')})/**/!(dashboard*)`,
      `lib/openapi/{${OPENAPI_VOCABULARY.join(',')}}.ts`,
    ],
  },
  {
    name: 'an edge (lib/http, the dashboard, the server, the worker, the OpenAPI document)',
    files: [
      `lib/{${EDGE_FOLDERS.join(',')}}/**`,
      'lib/*/dashboard*',
      `lib/openapi/!(${OPENAPI_VOCABULARY.join('|')}).ts`,
    ],
  },
  { name: 'components/', files: ['components/**'] },
  { name: 'app/ and the proxy', files: ['app/**', '{proxy,instrumentation}.ts'] },
];
const upwardImports = LAYERS.flatMap((layer, index) =>
  LAYERS.slice(index + 1).map((above) => ({
    target: layer.files,
    from: above.files,
    message: `${layer.name} may not import ${above.name}, a layer above it.`,
  })),
);
const LAYER_ZONES = [
  ...upwardImports,
  {
    target: ['app/**', 'components/**'],
    from: ['lib/**/repository*'],
    message: 'Pages and components read through a service, never a repository.',
  },
  {
    target: ['lib/**/repository*'],
    from: ['lib/**/service*'],
    message: 'A repository holds queries; the rules that call it live in the service above it.',
  },
  {
    // the two ways in, the API and the dashboard, share what is below them and nothing of each other
    target: ['lib/http/**'],
    from: ['lib/{dashboard,server-actions,auth}/**', 'lib/*/dashboard*'],
    message: 'The HTTP layer may not import the dashboard.',
  },
  {
    target: ['lib/{dashboard,server-actions,auth}/**', 'lib/*/dashboard*'],
    from: ['lib/http/**'],
    message: 'The dashboard may not import the HTTP layer.',
  },
];

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
    files: ['{app,components,lib}/**/*.{ts,tsx}', 'proxy.ts', 'instrumentation.ts'],
    // a test reaches into whichever layer it checks
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    rules: {
      'import/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: LAYER_ZONES }],
      // what the zones cannot see: two files of one layer (two resources' services) that import each other
      'import/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: ['lib/**/repository*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['next', 'next/*'], message: 'A repository knows nothing of Next.js or HTTP.' }] },
      ],
    },
  },
  {
    // a service's "now" is its RequestContext's (lib/core/context.ts): the connection's time, its test clock
    // included, read once where the context is built. Ambient time here would miss the merchant's test clock.
    files: ['lib/*/service.ts', 'lib/*/repository.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'A service or repository takes the time from its context (context.now), never new Date().',
        },
        {
          selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
          message: 'A service or repository takes the time from its context (context.now), never Date.now().',
        },
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
    // the import cycle lib/db/layers.test.ts plants for a moment (it lints it with ignores off)
    'lib/**/layers-test-*/**',
  ]),
]);
