// Stops every embedded PostgreSQL whose data folder is under data/ (the tests' data/test, data/e2e,
// data/e2e-abuse, data/test-scale…, whatever a new suite adds), then checks that none answers any more.
// `npm test` runs it last; with --check it exits 1 and names each one still running.
import { findProjectDataDirs, runningEmbeddedServer, stopEmbeddedServer } from '@/lib/db/embedded';

const check = process.argv.includes('--check');
const dataDirs = findProjectDataDirs('data');
for (const dir of dataDirs) await stopEmbeddedServer(dir);
const stillRunning = [];
for (const dir of dataDirs) if (await runningEmbeddedServer(dir)) stillRunning.push(dir);
if (stillRunning.length) {
  console.error(`embedded PostgreSQL still running for: ${stillRunning.join(', ')}`);
  if (check) process.exitCode = 1;
} else if (check) {
  console.log(`no embedded PostgreSQL left running under data/ (${dataDirs.length} data folders stopped)`);
}
