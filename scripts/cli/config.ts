import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateWebhookSecret } from '@/lib/webhooks/signature';

// What the CLI keeps between runs, in the user's config folder: `listen`'s signing secret, so that a
// webhook handler set up with it keeps verifying whenever `listen` starts again.

/** SANDBOX_PAYMENTS_CONFIG_DIR, else the platform's folder for a user's settings. */
export function configDir(env: Record<string, string | undefined> = process.env, platform = process.platform): string {
  if (env.SANDBOX_PAYMENTS_CONFIG_DIR) return path.resolve(env.SANDBOX_PAYMENTS_CONFIG_DIR);
  const home = os.homedir();
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'sandbox-payments');
  if (platform === 'win32') return path.join(env.APPDATA || path.join(home, 'AppData', 'Roaming'), 'sandbox-payments');
  return path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'sandbox-payments');
}

/** listen's secret: the one kept, or a new one, kept (readable by the user alone) for the next run. */
export function listenSecret(dir = configDir()): { secret: string; file: string } {
  const file = path.join(dir, 'listen.json');
  const kept = readSecret(file);
  if (kept) return { secret: kept, file };
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const secret = generateWebhookSecret();
  try {
    // 'wx': two first runs at once keep the secret of whichever wrote first
    fs.writeFileSync(file, `${JSON.stringify({ secret }, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as { code?: string }).code !== 'EEXIST') throw error;
    return { secret: readSecret(file) ?? secret, file };
  }
  return { secret, file };
}

function readSecret(file: string): string | undefined {
  try {
    const { secret } = JSON.parse(fs.readFileSync(file, 'utf8')) as { secret?: unknown };
    return typeof secret === 'string' && secret.startsWith('whsec_') ? secret : undefined;
  } catch {
    return undefined;
  }
}
