import { beforeEach, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { createMerchant } from '@/lib/merchants/service';
import { createWebhookEndpoint, getWebhookEndpointOrThrow } from './service';
import { updateFaultsFromDashboard } from './dashboard-actions';
import { contextOf } from '@/test/context';

// The Fault injection panel's save (lib/webhooks/dashboard-actions.ts): what is typed becomes the endpoint's faults
// through the API's service, or a sentence beside the field.

let merchantId: string;
let endpointId: string;

beforeEach(async () => {
  merchantId = (await createMerchant(await db(), { name: 'Panel Shop' })).id;
  endpointId = (
    await createWebhookEndpoint(contextOf(await db(), merchantId), {
      url: 'https://hooks.example.com/x',
      events: ['*'],
    })
  ).id;
});

const form = { duplicatePercent: '0', delaySeconds: '0', shuffle: false, seed: '' };

describe('updateFaultsFromDashboard', () => {
  it('saves a percentage as the rate, the delay, shuffle and the seed; an empty seed is none', async () => {
    const saved = await updateFaultsFromDashboard(contextOf(await db(), merchantId), endpointId, {
      duplicatePercent: '12.5',
      delaySeconds: '30',
      shuffle: true,
      seed: '42',
    });
    expect(saved).toEqual({ status: 'ok', message: 'Fault injection saved.' });
    const endpoint = await getWebhookEndpointOrThrow(contextOf(await db(), merchantId), endpointId);
    expect([
      endpoint.faultDuplicateRate,
      endpoint.faultDelaySeconds,
      endpoint.faultShuffle,
      endpoint.faultSeed,
    ]).toEqual([0.125, 30, true, 42n]);
    await updateFaultsFromDashboard(contextOf(await db(), merchantId), endpointId, form);
    expect((await getWebhookEndpointOrThrow(contextOf(await db(), merchantId), endpointId)).faultSeed).toBeNull();
  });

  it('refuses what is out of range or not a number beside its field, and changes nothing', async () => {
    const refused = await updateFaultsFromDashboard(contextOf(await db(), merchantId), endpointId, {
      duplicatePercent: '150',
      delaySeconds: 'soon',
      shuffle: false,
      seed: '1.5',
    });
    expect(refused).toMatchObject({
      status: 'error',
      fieldErrors: {
        duplicate_percent: 'Enter a percentage from 0 to 100.',
        delay_seconds: 'Enter whole seconds from 0 to 3600.',
        seed: 'Enter a whole number, or leave it empty for fresh randomness.',
      },
      values: { duplicate_percent: '150', delay_seconds: 'soon', seed: '1.5' },
    });
    expect((await getWebhookEndpointOrThrow(contextOf(await db(), merchantId), endpointId)).faultDuplicateRate).toBe(0);
  });

  it('refuses another merchant’s endpoint', async () => {
    const other = (await createMerchant(await db(), { name: 'Other Shop' })).id;
    const refused = await updateFaultsFromDashboard(contextOf(await db(), other), endpointId, form);
    expect(refused.status).toBe('error');
  });
});
