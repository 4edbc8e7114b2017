// The browser the Playwright specs run in, found or fetched: the one place that knows where a Chromium
// may live. `npm test` (scripts/test.sh) runs it once and exports CHROMIUM_PATH for playwright.config.ts.
//
//   npx tsx scripts/chromium.ts      prints the browser's path on stdout (progress on stderr), or exits 1
//                                    with what to do
//
// In this order: CHROMIUM_PATH; Playwright's own browser; a system headless shell, Chromium or Chrome; `npx
// playwright install chromium`; on Debian or Ubuntu as root, `apt-get install chromium-headless-shell` (or
// `chromium`). A headless shell is Chromium without its window system: the same engine, and the browser
// tests spend about a third less CPU in it (docs/testing.md), so on Debian or Ubuntu as root one is
// installed beside a system Chromium found without it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

/** What the resolver asks of the machine; tests hand in their own. */
export type ChromiumProbes = {
  platform: NodeJS.Platform;
  /** CHROMIUM_PATH, if set */
  configuredPath: string | undefined;
  /** where Playwright keeps (or would keep) its own Chromium */
  playwrightBrowserPath: () => string;
  isExecutable: (file: string) => boolean;
  /** the full path of a command on PATH */
  findOnPath: (command: string) => string | undefined;
  /** true when the command ran and succeeded */
  run: (command: string, args: string[]) => boolean;
  isDebianLike: () => boolean;
  isRoot: () => boolean;
  log: (line: string) => void;
};

export type ResolvedChromium = {
  path: string;
  source: 'CHROMIUM_PATH' | 'playwright' | 'system' | 'playwright install' | 'apt-get';
};

export class ChromiumNotFoundError extends Error {}

const HEADLESS_SHELL = 'chromium-headless-shell';
const LINUX_COMMANDS = [HEADLESS_SHELL, 'chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];
const MACOS_APPLICATIONS = [
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
];

const HOW_TO_GET_ONE = `No Chromium for the browser tests. Looked for CHROMIUM_PATH, Playwright's own browser, a system Chromium or
Chrome (${LINUX_COMMANDS.join(', ')} on PATH; ${MACOS_APPLICATIONS.map((app) => app.split('/Contents/')[0]).join(', ')} on macOS),
then tried \`npx playwright install chromium\` (its download host may be unreachable from here) and, on Debian or
Ubuntu as root, \`apt-get install ${HEADLESS_SHELL}\` or \`chromium\`. Install one of them (e.g. \`npx playwright install chromium\` on a
network that reaches Playwright's download host, \`sudo apt-get install chromium\`, or Google Chrome), or point
CHROMIUM_PATH at a Chromium or Chrome executable, and run npm test again.`;

/** A browser already on this machine, without installing anything; undefined when there is none. */
export function findChromium(probes: ChromiumProbes = machineProbes()): ResolvedChromium | undefined {
  if (probes.configuredPath) {
    if (probes.isExecutable(probes.configuredPath)) return { path: probes.configuredPath, source: 'CHROMIUM_PATH' };
    // a setting that names nothing is a mistake to report, not a reason to pick another browser
    throw new ChromiumNotFoundError(`CHROMIUM_PATH is ${probes.configuredPath}, which is not an executable file`);
  }
  const playwright = playwrightBrowser(probes);
  if (playwright) return { path: playwright, source: 'playwright' };
  const system = systemBrowser(probes);
  if (system) return { path: system, source: 'system' };
  return undefined;
}

/** A browser found, or installed when there is none; throws ChromiumNotFoundError saying what to do. */
export function resolveChromium(probes: ChromiumProbes = machineProbes()): ResolvedChromium {
  const found = findChromium(probes);
  if (found?.source === 'system' && !found.path.endsWith(HEADLESS_SHELL) && canUseApt(probes)) {
    probes.log(`chromium: found ${found.path}; trying \`apt-get install ${HEADLESS_SHELL}\` beside it`);
    return aptInstall(probes, [HEADLESS_SHELL]) ?? found;
  }
  if (found) return found;

  probes.log('chromium: none found; trying `npx playwright install chromium`');
  if (probes.run('npx', ['playwright', 'install', 'chromium'])) {
    const installed = playwrightBrowser(probes);
    if (installed) return { path: installed, source: 'playwright install' };
  }

  if (canUseApt(probes)) {
    probes.log('chromium: trying `apt-get install`');
    const installed = aptInstall(probes, [HEADLESS_SHELL, 'chromium']);
    if (installed) return installed;
  }

  throw new ChromiumNotFoundError(HOW_TO_GET_ONE);
}

function canUseApt(probes: ChromiumProbes): boolean {
  return probes.platform === 'linux' && probes.isDebianLike() && probes.isRoot();
}

/** The first of the packages apt-get installs (each's command is its name), or undefined when none does. */
function aptInstall(probes: ChromiumProbes, packages: string[]): ResolvedChromium | undefined {
  if (!probes.run('apt-get', ['update', '-qq'])) return undefined;
  for (const name of packages) {
    if (!probes.run('apt-get', ['install', '-y', '-qq', name])) continue;
    const installed = probes.findOnPath(name);
    if (installed) return { path: installed, source: 'apt-get' };
  }
  return undefined;
}

function playwrightBrowser(probes: ChromiumProbes): string | undefined {
  const file = probes.playwrightBrowserPath();
  return file && probes.isExecutable(file) ? file : undefined;
}

function systemBrowser(probes: ChromiumProbes): string | undefined {
  if (probes.platform === 'darwin') {
    const app = MACOS_APPLICATIONS.find((file) => probes.isExecutable(file));
    if (app) return app;
  }
  for (const command of LINUX_COMMANDS) {
    const file = probes.findOnPath(command);
    if (file) return file;
  }
  return undefined;
}

export function machineProbes(env: NodeJS.ProcessEnv = process.env): ChromiumProbes {
  const isExecutable = (file: string) => {
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return fs.statSync(file).isFile();
    } catch {
      return false;
    }
  };
  return {
    platform: process.platform,
    configuredPath: env.CHROMIUM_PATH || undefined,
    playwrightBrowserPath: () => {
      try {
        return chromium.executablePath();
      } catch {
        return ''; // Playwright has no Chromium build for this platform
      }
    },
    isExecutable,
    findOnPath: (command) =>
      (env.PATH ?? '')
        .split(path.delimiter)
        .filter(Boolean)
        .map((dir) => path.join(dir, command))
        .find(isExecutable),
    run: (command, args) => {
      // stdout is the resolved path's alone: an installer's progress goes to stderr
      const result = spawnSync(command, args, {
        stdio: ['ignore', 2, 2],
        env: { ...env, DEBIAN_FRONTEND: 'noninteractive' },
      });
      return result.status === 0;
    },
    isDebianLike: () => fs.existsSync('/etc/debian_version'),
    isRoot: () => process.getuid?.() === 0,
    log: (line) => process.stderr.write(`${line}\n`),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  try {
    const browser = resolveChromium();
    process.stderr.write(`chromium: ${browser.path} (${browser.source})\n`);
    process.stdout.write(`${browser.path}\n`);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
