import { afterAll, inject } from 'vitest';
import { endFile, startFile } from './file-state';

// API test files set up merchants and keys through the services, on the database the server uses.
startFile();
process.env.DATABASE_URL = inject('serverDatabaseUrl');
process.env.DATA_DIR ??= process.env.TEST_DATA_DIR ?? 'data/test';
process.env.LOG_LEVEL ??= 'warn';

afterAll(endFile);
