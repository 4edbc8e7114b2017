import { defineConfig } from 'prisma/config';

// Prisma's schema engine is a binary it downloads at run time, which these machines cannot fetch.
// `prisma generate` does not need it, and migrations are applied by lib/db/migrate.ts.
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= '/bin/false';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
});
