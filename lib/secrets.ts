import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { dataDir, env } from '@/lib/env';

// Server-side secrets: from the environment when set, else generated once and kept under DATA_DIR so that
// every process sharing that folder agrees. Several machines sharing one database must set them.

type Secrets = { apiKeyPepper: string; nextAuthSecret: string };

let cached: Secrets | undefined;

export function secrets(): Secrets {
  if (cached) return cached;
  const stored = readOrCreateStored();
  cached = {
    apiKeyPepper: env().API_KEY_PEPPER || stored.apiKeyPepper,
    nextAuthSecret: env().NEXTAUTH_SECRET || stored.nextAuthSecret,
  };
  return cached;
}

function readOrCreateStored(): Secrets {
  const file = path.join(dataDir(), 'secrets.json');
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Secrets;
  } catch {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const fresh: Secrets = {
      apiKeyPepper: randomBytes(32).toString('base64url'),
      nextAuthSecret: randomBytes(32).toString('base64url'),
    };
    // write aside and link into place: if two processes race, the first link wins and both read it
    const temp = `${file}.${process.pid}.${Date.now()}`;
    fs.writeFileSync(temp, JSON.stringify(fresh), { mode: 0o600 });
    try {
      fs.linkSync(temp, file);
    } catch {
      // someone else won
    } finally {
      fs.rmSync(temp, { force: true });
    }
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Secrets;
  }
}
