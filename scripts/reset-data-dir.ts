// Stops the embedded server of a DATA_DIR and deletes the folder: a clean slate for the e2e server.
import fs from 'node:fs';
import path from 'node:path';
import { resolveClusterDir, stopEmbeddedServer } from '@/lib/db/embedded';

const dir = process.argv[2];
if (!dir) throw new Error('usage: tsx scripts/reset-data-dir.ts DATA_DIR');
await stopEmbeddedServer(dir);
fs.rmSync(dir, { recursive: true, force: true });
// the cluster's folder, with its log and password file beside the cluster (under the temp folder when the
// postgres user cannot reach DATA_DIR)
fs.rmSync(path.dirname(resolveClusterDir(dir)), { recursive: true, force: true });
