import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configDir, listenSecret } from './config';

// Where listen keeps its secret, on each platform, and that it is kept.

describe('the CLI config folder', () => {
  const home = os.homedir();
  it.each([
    ['linux', {}, path.join(home, '.config', 'sandbox-payments')],
    ['linux', { XDG_CONFIG_HOME: '/xdg' }, path.join('/xdg', 'sandbox-payments')],
    ['darwin', {}, path.join(home, 'Library', 'Application Support', 'sandbox-payments')],
    ['linux', { SANDBOX_PAYMENTS_CONFIG_DIR: '/elsewhere' }, path.resolve('/elsewhere')],
  ] as const)('on %s with %o is %s', (platform, env, expected) => {
    expect(configDir(env, platform)).toBe(expected);
  });

  it('keeps one secret, readable by its owner alone', () => {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-config-')), 'nested');
    try {
      const first = listenSecret(dir);
      expect(first.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(listenSecret(dir)).toEqual(first);
      expect(fs.statSync(first.file).mode & 0o777).toBe(0o600);
    } finally {
      fs.rmSync(path.dirname(dir), { recursive: true, force: true });
    }
  });
});
