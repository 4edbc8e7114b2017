import { describe, expect, it } from 'vitest';
import { apiTarget } from './api';

const env = (values: Record<string, string | undefined>) => values as NodeJS.ProcessEnv;

// `listen` and `trigger` find the sandbox the README's shell has exported, whatever its port.
describe('the address listen and trigger call', () => {
  const apiKey = `sk_sandbox_${'A'.repeat(32)}`;

  it('is --base-url, else SANDBOX_URL, else APP_URL, else localhost:3000', () => {
    const settings = env({
      SANDBOX_API_KEY: apiKey,
      SANDBOX_URL: 'http://localhost:3001/',
      APP_URL: 'https://pay.example.com',
    });
    expect(apiTarget({ baseUrl: 'http://127.0.0.1:4000' }, settings)).toEqual({
      apiKey,
      baseUrl: 'http://127.0.0.1:4000',
    });
    expect(apiTarget({}, settings)).toEqual({ apiKey, baseUrl: 'http://localhost:3001' });
    expect(apiTarget({}, { ...settings, SANDBOX_URL: undefined })).toEqual({
      apiKey,
      baseUrl: 'https://pay.example.com',
    });
    expect(apiTarget({}, env({ SANDBOX_API_KEY: apiKey }))).toEqual({ apiKey, baseUrl: 'http://localhost:3000' });
  });

  it('needs a key', () => {
    expect(apiTarget({}, env({}))).toBe('--api-key (or SANDBOX_API_KEY) is required');
  });
});
