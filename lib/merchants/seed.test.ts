import { describe, expect, it } from 'vitest';
import { findActiveApiKey } from '@/lib/api-keys/service';
import { db } from '@/lib/db';
import { verifyUserPassword } from '@/lib/users/service';
import { configuredWebsites, DEMO_EMAIL, seedDemo } from './seed';

describe('first-start seeding', () => {
  it('creates the demo merchant once, even when several processes start at once', async () => {
    const client = await db();
    const results = await Promise.all(Array.from({ length: 5 }, () => seedDemo(client)));
    const created = results.filter((result) => result.created);
    expect(created).toHaveLength(1);
    expect(await client.merchant.count()).toBe(1);
    const merchant = await client.merchant.findFirstOrThrow({ include: { websites: true } });
    expect(merchant).toMatchObject({
      name: 'Demo Shop',
      paymentMethods: ['card', 'usdc', 'interac'],
      refundPolicy: 'automatic',
    });
    expect(merchant.websites.map((w) => w.host).sort()).toEqual([
      'localhost:3000',
      'localhost:4000',
      'shop.example.com',
    ]);

    const { password, api_key } = created[0];
    expect(await verifyUserPassword(client, DEMO_EMAIL, password!)).not.toBeNull();
    expect(await verifyUserPassword(client, DEMO_EMAIL, 'wrong')).toBeNull();
    const key = await findActiveApiKey(api_key!);
    expect(key?.merchantId).toBe(merchant.id);
    expect(key?.scopes).toHaveLength(9);
    // nothing secret is stored in the clear
    const row = await client.apiKey.findFirstOrThrow();
    expect(row.hash).not.toContain(api_key);
    expect(row.prefix).toBe(`${api_key!.slice(0, 15)}…${api_key!.slice(-4)}`);
    const user = await client.user.findFirstOrThrow();
    expect(user.passwordHash).not.toContain(password);

    const again = await seedDemo(client);
    expect(again).toEqual({ merchant_id: merchant.id, email: DEMO_EMAIL, created: false });
  });

  it('approves the configured websites on every start, adding and never removing', async () => {
    const client = await db();
    const first = await seedDemo(client, configuredWebsites(' CI.example.test:8080, , preview.example.test:443 '));
    const hosts = async () =>
      (await client.approvedWebsite.findMany({ where: { merchantId: first.merchant_id } })).map((w) => w.host).sort();
    expect(await hosts()).toEqual([
      'ci.example.test:8080',
      'localhost:3000',
      'localhost:4000',
      'preview.example.test',
      'shop.example.com',
    ]);
    await seedDemo(client, configuredWebsites('next.example.test'));
    await seedDemo(client, configuredWebsites(undefined));
    expect(await hosts()).toEqual([
      'ci.example.test:8080',
      'localhost:3000',
      'localhost:4000',
      'next.example.test',
      'preview.example.test',
      'shop.example.com',
    ]);
  });

  it.each(['https://ci.example.test', 'ci.example.test/path', '*.example.test', 'ci example'])(
    'refuses %s in SANDBOX_APPROVED_WEBSITES, naming it',
    (bad) => {
      expect(() => configuredWebsites(`ok.example.test,${bad}`)).toThrow(
        `SANDBOX_APPROVED_WEBSITES: ${JSON.stringify(bad)} is not a host`,
      );
    },
  );
});
