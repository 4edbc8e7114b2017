// Stops the embedded PostgreSQL servers the test run started (data/test and data/e2e).
import { stopEmbeddedServer } from '@/lib/db/embedded';

for (const dir of [process.env.TEST_DATA_DIR ?? 'data/test', process.env.E2E_DATA_DIR ?? 'data/e2e'])
  await stopEmbeddedServer(dir);
