import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { resolveClusterDir, runningEmbeddedServer, stopEmbeddedServer } from '@/lib/db/embedded';
import { freePort } from '@/lib/core/free-port';
import { readmeShellBlocks, type ReadmeBlock } from './readme-blocks';

// Every shell block of the README and then docs/testing.md (readme-blocks.ts), exactly as written, in
// order, in one bash, from the repository's folder,
// as a reader pastes them into the shells the README names (test/readme/readme-blocks.ts says how the
// marked ones run). A block passes when each of its commands succeeds (`set -e`, `pipefail`) and nothing it
// prints is an API error body. The shell's PORT is a free port (the quick start's `npm run dev` and
// SANDBOX_URL follow it), its DATA_DIR a fresh folder outside the tree. At the end every server is stopped
// with Ctrl-C (SIGINT to its process group), after which the embedded PostgreSQL must have stopped too.

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'readme-test-'));
const dataDir = path.join(workDir, 'data');
const CLIENT_TARBALL = path.join(ROOT, 'sandbox-payments-client-0.1.0.tgz');
// the process groups the script started (servers, handlers), each written here as it starts
const GROUPS = path.join(workDir, 'groups');
const DEADLINE_MS = 25 * 60_000;

/** Ctrl-C to every process group the script left, then SIGKILL to what did not stop: nothing outlives the test. */
async function stopLeftovers(): Promise<void> {
  const groups = fs.existsSync(GROUPS) ? fs.readFileSync(GROUPS, 'utf8').split('\n').filter(Boolean).map(Number) : [];
  const signal = (group: number, name: NodeJS.Signals) => {
    try {
      process.kill(-group, name);
      return true;
    } catch {
      return false;
    }
  };
  if (!groups.some((group) => signal(group, 'SIGINT'))) return;
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  for (const group of groups) signal(group, 'SIGKILL');
}

afterAll(async () => {
  await stopLeftovers();
  await stopEmbeddedServer(dataDir);
  fs.rmSync(path.dirname(resolveClusterDir(dataDir)), { recursive: true, force: true });
  fs.rmSync(workDir, { recursive: true, force: true });
  // what the client's tarball route leaves in the clone
  fs.rmSync(CLIENT_TARBALL, { force: true });
  fs.rmSync(path.join(ROOT, 'client', 'node_modules'), { recursive: true, force: true });
});

/** Bash that runs the blocks, printing `::start W` and `::done W` around each foreground block at W (file:line). */
function script(blocks: ReadmeBlock[]): string {
  const lines = [
    'set -m', // each background job in its own process group, as a terminal's job is
    'readme_server=; readme_jobs=()',
    'readme_ready() { for _ in $(seq 1 1200); do curl -sf -o /dev/null "http://127.0.0.1:$PORT/readyz" && return 0; sleep 0.5; done; return 1; }',
    'readme_ctrl_c() { kill -INT -- "-$1" 2>/dev/null; wait "$1" 2>/dev/null; }',
  ];
  for (const block of blocks) {
    if (block.mode === 'not run') continue;
    const log = path.join(workDir, `block-${block.where.replace(/\W/g, '-')}.log`);
    if (block.mode === 'run') {
      lines.push(
        `echo "::start ${block.where}"`,
        'set -eo pipefail',
        block.code,
        'set +eo pipefail',
        `echo "::done ${block.where}"`,
      );
    } else if (block.mode === 'server') {
      lines.push(
        '[ -n "$readme_server" ] && readme_ctrl_c "$readme_server"',
        `( ${block.code}\n) > ${log} 2>&1 &`,
        'readme_server=$!',
        `echo $readme_server >> ${GROUPS}`,
        `readme_ready || { echo "::not ready ${block.where}"; exit 1; }`,
      );
    } else {
      lines.push(`( ${block.code}\n) > ${log} 2>&1 &`, 'readme_jobs+=($!)', `echo $! >> ${GROUPS}`);
    }
  }
  lines.push(
    'for job in "${readme_jobs[@]}"; do readme_ctrl_c "$job"; done',
    '[ -n "$readme_server" ] && readme_ctrl_c "$readme_server"',
    'echo "::end"',
  );
  return lines.join('\n');
}

it(
  'runs every shell block of the README and docs/testing.md as written',
  async () => {
    const blocks = readmeShellBlocks(ROOT);
    // the blocks not run are few, and each says why
    const notRun = blocks.filter((block) => block.mode === 'not run');
    expect(notRun.length).toBeLessThanOrEqual(3);
    for (const block of notRun) expect(block.note?.length).toBeGreaterThan(10);

    const file = path.join(workDir, 'readme.sh');
    fs.writeFileSync(file, script(blocks));
    const shell: Record<string, string | undefined> = {
      ...process.env,
      PORT: String(await freePort()),
      DATA_DIR: dataDir,
      // listen keeps its signing secret here instead of the user's config folder
      SANDBOX_PAYMENTS_CONFIG_DIR: path.join(workDir, 'config'),
    };
    // a reader's shell: none of the test run's own settings (vitest's NODE_ENV=test included)
    for (const name of ['SANDBOX_URL', 'SANDBOX_API_KEY', 'APP_URL', 'DATABASE_URL', 'NODE_ENV']) delete shell[name];
    const child = spawn('bash', [file], {
      cwd: ROOT,
      detached: true,
      env: shell as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    fs.appendFileSync(GROUPS, `${child.pid}\n`);
    // past the deadline the script is stopped, and what it printed says where it was
    const deadline = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), DEADLINE_MS);
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    clearTimeout(deadline);
    const logs = () =>
      fs
        .readdirSync(workDir)
        .filter((name) => name.endsWith('.log'))
        .map((name) => `--- ${name}\n${fs.readFileSync(path.join(workDir, name), 'utf8').slice(-3000)}`)
        .join('\n');

    const ran = blocks.filter((block) => block.mode === 'run');
    for (const block of ran) {
      const start = output.indexOf(`::start ${block.where}\n`);
      const done = output.indexOf(`::done ${block.where}\n`);
      const printed = output.slice(start, done === -1 ? undefined : done);
      const where = `${block.where}\n${block.code}\n--- printed:\n${printed.slice(-4000)}\n${logs()}`;
      expect(start, `never reached ${where}`).toBeGreaterThanOrEqual(0);
      expect(done, `failed ${where}`).toBeGreaterThan(start);
      expect(printed, `answered an API error ${where}`).not.toMatch(/"error":\s*\{/);
    }
    expect(code, output.slice(-4000)).toBe(0);
    expect(output).toContain('::end');
    // Ctrl-C on the README's `npm run dev` stops the embedded PostgreSQL it started (a fast shutdown: soon after)
    await expect.poll(() => runningEmbeddedServer(dataDir), { timeout: 30_000 }).toBe(false);
  },
  DEADLINE_MS + 60_000,
);
