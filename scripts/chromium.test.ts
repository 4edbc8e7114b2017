import { describe, expect, it } from 'vitest';
import { ChromiumNotFoundError, findChromium, resolveChromium, type ChromiumProbes } from './chromium';

// The resolver's order, on a pretend machine: which files exist, what is on PATH, which installs work.
// Nothing here looks at the real machine or installs anything.

const PLAYWRIGHT_CHROME = '/home/dev/.cache/ms-playwright/chromium-1255/chrome-linux64/chrome';
// where apt's package puts its browser on this pretend machine
const APT_CHROMIUM = '/usr/lib/chromium/chromium';
const APT_SHELL = '/usr/bin/chromium-headless-shell';

type Machine = {
  platform?: NodeJS.Platform;
  configuredPath?: string;
  files?: string[];
  onPath?: Record<string, string>;
  /** what each succeeding install puts on the machine (apt: each package's command); an install not listed fails */
  installs?: { playwright?: string[]; apt?: Record<string, string> };
  debian?: boolean;
  root?: boolean;
};

function pretend(machine: Machine): { probes: ChromiumProbes; ran: string[] } {
  const files = new Set(machine.files ?? []);
  const onPath = { ...machine.onPath };
  const ran: string[] = [];
  const probes: ChromiumProbes = {
    platform: machine.platform ?? 'linux',
    configuredPath: machine.configuredPath,
    playwrightBrowserPath: () => PLAYWRIGHT_CHROME,
    isExecutable: (file) => files.has(file),
    findOnPath: (command) => onPath[command],
    run: (command, args) => {
      const line = [command, ...args].join(' ');
      ran.push(line);
      if (line === 'npx playwright install chromium') {
        if (!machine.installs?.playwright) return false;
        for (const file of machine.installs.playwright) files.add(file);
        return true;
      }
      if (command === 'apt-get') {
        const apt = machine.installs?.apt;
        if (!apt) return false;
        if (args[0] !== 'install') return true;
        const name = args.at(-1)!;
        if (!(name in apt)) return false;
        onPath[name] = apt[name];
        return true;
      }
      throw new Error(`unexpected command ${line}`);
    },
    isDebianLike: () => machine.debian ?? false,
    isRoot: () => machine.root ?? false,
    log: () => {},
  };
  return { probes, ran };
}

describe('resolveChromium', () => {
  it('takes CHROMIUM_PATH before anything else', () => {
    const { probes, ran } = pretend({
      configuredPath: '/opt/chrome/chrome',
      files: ['/opt/chrome/chrome', PLAYWRIGHT_CHROME],
      onPath: { chromium: '/usr/local/bin/chromium' },
    });
    expect(resolveChromium(probes)).toEqual({ path: '/opt/chrome/chrome', source: 'CHROMIUM_PATH' });
    expect(ran).toEqual([]);
  });

  it('refuses a CHROMIUM_PATH that names no executable instead of picking another browser', () => {
    const { probes, ran } = pretend({ configuredPath: '/opt/missing/chrome', files: [PLAYWRIGHT_CHROME] });
    expect(() => resolveChromium(probes)).toThrow(/CHROMIUM_PATH is \/opt\/missing\/chrome/);
    expect(ran).toEqual([]);
  });

  it("takes Playwright's own browser before a system one", () => {
    const { probes } = pretend({ files: [PLAYWRIGHT_CHROME], onPath: { chromium: '/usr/local/bin/chromium' } });
    expect(resolveChromium(probes)).toEqual({ path: PLAYWRIGHT_CHROME, source: 'playwright' });
  });

  it('finds a system browser on PATH by its Linux names, in order', () => {
    const { probes, ran } = pretend({
      onPath: {
        'google-chrome-stable': '/usr/local/bin/google-chrome-stable',
        'chromium-browser': '/snap/bin/chromium-browser',
      },
    });
    expect(resolveChromium(probes)).toEqual({ path: '/snap/bin/chromium-browser', source: 'system' });
    expect(ran).toEqual([]);
  });

  it('finds Google Chrome or Chromium in /Applications on macOS', () => {
    const chromiumApp = '/Applications/Chromium.app/Contents/MacOS/Chromium';
    expect(resolveChromium(pretend({ platform: 'darwin', files: [chromiumApp] }).probes)).toEqual({
      path: chromiumApp,
      source: 'system',
    });
    const chromeApp = '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome';
    expect(resolveChromium(pretend({ platform: 'darwin', files: [chromiumApp, chromeApp] }).probes).path).toBe(
      chromeApp,
    );
  });

  it('installs with Playwright when nothing is found, and does not go on to apt-get', () => {
    const { probes, ran } = pretend({
      debian: true,
      root: true,
      installs: { playwright: [PLAYWRIGHT_CHROME], apt: { chromium: APT_CHROMIUM } },
    });
    expect(resolveChromium(probes)).toEqual({ path: PLAYWRIGHT_CHROME, source: 'playwright install' });
    expect(ran).toEqual(['npx playwright install chromium']);
  });

  it("falls back to apt-get on Debian as root when Playwright's download fails: the headless shell, else Chromium", () => {
    const shell = pretend({
      debian: true,
      root: true,
      installs: { apt: { 'chromium-headless-shell': APT_SHELL, chromium: APT_CHROMIUM } },
    });
    expect(resolveChromium(shell.probes)).toEqual({ path: APT_SHELL, source: 'apt-get' });
    expect(shell.ran).toEqual([
      'npx playwright install chromium',
      'apt-get update -qq',
      'apt-get install -y -qq chromium-headless-shell',
    ]);

    // Ubuntu, say, has no such package
    const full = pretend({ debian: true, root: true, installs: { apt: { chromium: APT_CHROMIUM } } });
    expect(resolveChromium(full.probes)).toEqual({ path: APT_CHROMIUM, source: 'apt-get' });
    expect(full.ran).toEqual([
      'npx playwright install chromium',
      'apt-get update -qq',
      'apt-get install -y -qq chromium-headless-shell',
      'apt-get install -y -qq chromium',
    ]);
  });

  it('takes a system headless shell before a full Chromium, and installs nothing', () => {
    const { probes, ran } = pretend({
      debian: true,
      root: true,
      onPath: { chromium: APT_CHROMIUM, 'chromium-headless-shell': APT_SHELL },
      installs: { apt: { 'chromium-headless-shell': APT_SHELL } },
    });
    expect(resolveChromium(probes)).toEqual({ path: APT_SHELL, source: 'system' });
    expect(ran).toEqual([]);
  });

  it('on Debian as root, installs the headless shell beside a system Chromium, and keeps the Chromium when it cannot', () => {
    const installed = pretend({
      debian: true,
      root: true,
      onPath: { chromium: APT_CHROMIUM },
      installs: { apt: { 'chromium-headless-shell': APT_SHELL } },
    });
    expect(resolveChromium(installed.probes)).toEqual({ path: APT_SHELL, source: 'apt-get' });
    expect(installed.ran).toEqual(['apt-get update -qq', 'apt-get install -y -qq chromium-headless-shell']);

    const kept = pretend({ debian: true, root: true, onPath: { chromium: APT_CHROMIUM }, installs: { apt: {} } });
    expect(resolveChromium(kept.probes)).toEqual({ path: APT_CHROMIUM, source: 'system' });

    // not root, or not Debian: the Chromium found, nothing tried
    const user = pretend({ debian: true, root: false, onPath: { chromium: APT_CHROMIUM } });
    expect(resolveChromium(user.probes)).toEqual({ path: APT_CHROMIUM, source: 'system' });
    expect(user.ran).toEqual([]);
  });

  it('does not use apt-get when not root, or not on Debian, or not on Linux, and then says how to get a browser', () => {
    for (const machine of [
      { debian: true, root: false },
      { debian: false, root: true },
      { platform: 'darwin' as const, debian: true, root: true },
    ]) {
      const { probes, ran } = pretend({ ...machine, installs: { apt: { chromium: APT_CHROMIUM } } });
      expect(() => resolveChromium(probes)).toThrow(ChromiumNotFoundError);
      expect(() => resolveChromium(probes)).toThrow(/point\s+CHROMIUM_PATH at a Chromium or Chrome executable/);
      expect(ran.filter((line) => line.startsWith('apt-get'))).toEqual([]);
    }
  });

  it('fails with the same advice when every install fails', () => {
    const { probes, ran } = pretend({ debian: true, root: true });
    expect(() => resolveChromium(probes)).toThrow(/npx playwright install chromium/);
    expect(ran).toEqual(['npx playwright install chromium', 'apt-get update -qq']);
  });
});

describe('findChromium', () => {
  it('only looks: no browser means undefined, and nothing is installed', () => {
    const { probes, ran } = pretend({ debian: true, root: true, installs: { playwright: [PLAYWRIGHT_CHROME] } });
    expect(findChromium(probes)).toBeUndefined();
    expect(ran).toEqual([]);
  });
});
