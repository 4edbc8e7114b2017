// Stops the embedded PostgreSQL servers the test run started (data/test and data/e2e).
import { stopEmbeddedServer } from '@/lib/db/embedded';

for (const dir of ['data/test', 'data/e2e']) await stopEmbeddedServer(dir);
