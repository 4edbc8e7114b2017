import { describe, expect, it } from 'vitest';
import { isLoopbackUrl, webhooksAllowPrivateUrls } from './env';

// Private webhook URLs are a developer's convenience: on by default only where APP_URL is a loopback
// address, whichever database the server uses; WEBHOOKS_ALLOW_PRIVATE_URLS decides when it is set.

describe('webhooksAllowPrivateUrls', () => {
  it.each([
    'http://localhost:3000',
    'http://LOCALHOST',
    'http://127.0.0.1:3000',
    'http://127.1.2.3',
    'http://127.1',
    'http://[::1]:3000',
    'http://[0:0::1]',
    'https://localhost/pay',
  ])('allows them by default when APP_URL is %s', (appUrl) => {
    expect(webhooksAllowPrivateUrls({ APP_URL: appUrl })).toBe(true);
  });

  it.each([
    'https://pay.example.com',
    'http://10.0.0.5:3000',
    'http://192.168.1.20:3000',
    'http://0.0.0.0:3000',
    'http://[::]:3000',
    'http://localhost.example.com',
    'http://127.0.0.1.nip.io',
    'http://[::ffff:127.0.0.1]',
  ])('refuses them by default when APP_URL is %s', (appUrl) => {
    expect(webhooksAllowPrivateUrls({ APP_URL: appUrl })).toBe(false);
  });

  it('follows WEBHOOKS_ALLOW_PRIVATE_URLS when it is set, whatever APP_URL says', () => {
    expect(webhooksAllowPrivateUrls({ APP_URL: 'https://pay.example.com', WEBHOOKS_ALLOW_PRIVATE_URLS: true })).toBe(
      true,
    );
    expect(webhooksAllowPrivateUrls({ APP_URL: 'http://localhost:3000', WEBHOOKS_ALLOW_PRIVATE_URLS: false })).toBe(
      false,
    );
  });
});

describe('isLoopbackUrl', () => {
  it('reads the host, not the path or the credentials', () => {
    expect(isLoopbackUrl('https://pay.example.com/localhost')).toBe(false);
    expect(isLoopbackUrl('http://localhost@pay.example.com/')).toBe(false);
    expect(isLoopbackUrl('http://pay.example.com@127.0.0.1/')).toBe(true);
  });
});
