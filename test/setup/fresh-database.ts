import { afterAll, inject } from 'vitest';
import { createTestDatabase } from './databases';
import { endFile, startFile } from './file-state';

// Each test file gets its own database, cloned from the migrated template, before any lib code connects.
startFile();
process.env.DATABASE_URL = await createTestDatabase(inject('adminUrl'), 'svc');
process.env.DATA_DIR ??= process.env.TEST_DATA_DIR ?? 'data/test';
process.env.LOG_LEVEL ??= 'warn';

afterAll(endFile);
