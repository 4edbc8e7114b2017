import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

// A merchant's empty project with a plug-in's tarball installed: the plug-in's scripts/pack.sh makes the
// tarball (the repository's client bundled in it), npm installs it into a new folder without the registry,
// and the platform's packages, the tarball's peer dependencies, are linked from the plug-in's own
// node_modules (installing the platform again would take minutes and prove nothing more), with TypeScript's
// Node types. Then a strict TypeScript file imports the plug-in by name, compiles, and runs under Node.

const run = promisify(execFile);

export type PackedProject = {
  tarball: string;
  /** the folder the tarball is installed in */
  project: string;
  /** the plug-in's package.json as the tarball holds it */
  manifest: { dependencies?: Record<string, string>; peerDependencies?: Record<string, string> } & Record<
    string,
    unknown
  >;
  remove(): void;
};

export async function packedProject(plugin: string, name: string): Promise<PackedProject> {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), `${path.basename(name)}-package-`));
  const { stdout } = await run('bash', [path.join(plugin, 'scripts/pack.sh'), workDir], { cwd: plugin }).catch(
    (error) => {
      throw new Error(`scripts/pack.sh failed:\n${error.stderr}`);
    },
  );
  const tarball = stdout.trim().split('\n').at(-1)!;
  const project = path.join(workDir, 'shop');
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'shop', private: true }));
  // --offline: what the plug-in needs beyond its platform comes in the tarball; the peers are linked below
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--legacy-peer-deps', tarball], {
    cwd: project,
  });
  const installed = path.join(project, 'node_modules', ...name.split('/'));
  const manifest = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8'));
  for (const peer of [...Object.keys(manifest.peerDependencies ?? {}), '@types/node']) {
    const link = path.join(project, 'node_modules', peer);
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.symlinkSync(path.join(plugin, 'node_modules', peer), link);
  }
  return { tarball, project, manifest, remove: () => fs.rmSync(workDir, { recursive: true, force: true }) };
}

/** What each plug-in's tarball must hold: its build, types and README, and the client bundled. */
const REQUIRED_FILES = [
  'package/dist/index.js',
  'package/dist/index.d.ts',
  'package/README.md',
  'package/node_modules/@sandbox-payments/client/dist/cjs/index.js',
];
const SHIPPABLE = /^package\/(dist\/[\w.-]+\.(js|d\.ts)|README\.md|package\.json|node_modules\/.+)$/;

/** The tarball's required files it lacks, and the files it holds beyond those a plug-in ships. */
export async function tarballContents(tarball: string): Promise<{ missing: string[]; unexpected: string[] }> {
  const { stdout } = await run('tar', ['-tzf', tarball]);
  const files = stdout.split('\n').filter(Boolean);
  return {
    missing: REQUIRED_FILES.filter((file) => !files.includes(file)),
    unexpected: files.filter((file) => !SHIPPABLE.test(file)),
  };
}

/**
 * Compiles `source` as the project's index.ts under strict TypeScript (CommonJS, as both platforms' projects
 * are) and runs it with Node; answers what it printed, parsed as JSON. A type error throws with tsc's output.
 */
export async function compileAndRun(plugin: string, project: string, source: string): Promise<unknown> {
  fs.writeFileSync(path.join(project, 'index.ts'), source);
  const config = {
    compilerOptions: {
      target: 'ES2022',
      module: 'Node16',
      moduleResolution: 'Node16',
      strict: true,
      noUncheckedIndexedAccess: true,
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
      // both platforms' own declaration files need it (their starters set it)
      skipLibCheck: true,
      types: ['node'],
    },
    files: ['index.ts'],
  };
  fs.writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify(config));
  const tsc = path.join(plugin, 'node_modules/typescript/bin/tsc');
  await run(process.execPath, [tsc, '-p', project], { cwd: project }).catch((error) => {
    throw new Error(`tsc refused index.ts:\n${error.stdout}${error.stderr}`);
  });
  const { stdout } = await run(process.execPath, ['index.js'], { cwd: project });
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}
