import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/core/errors';
import { createEndpointFromDashboard } from './dashboard-actions';
import { db } from '@/lib/db';
import { createMerchant } from '@/lib/merchants/service';
import { createWebhookEndpoint } from './service';
import { contextOf } from '@/test/context';

// The endpoint URL's refusal, worded for a person by the service instead of rewritten by the form.

describe('webhook endpoint URL refusal', () => {
  it('keeps the API message and carries the sentence the dashboard shows', async () => {
    const client = await db();
    const merchantId = (await createMerchant(client, { name: 'Hooks', hosts: ['hooks.example.com'] })).id;
    const error = await createWebhookEndpoint(contextOf(client, merchantId), {
      url: 'ftp://example.com/hooks',
      events: ['*'],
    }).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      code: 'parameter_invalid',
      param: 'url',
      message: 'Invalid url: it must use http or https',
      userMessage: 'This URL must use http or https',
    });
    expect(
      await createEndpointFromDashboard(contextOf(client, merchantId), {
        url: 'ftp://example.com/hooks',
        description: '',
        allEvents: true,
        events: [],
      }),
    ).toMatchObject({ status: 'error', fieldErrors: { url: 'This URL must use http or https' } });
  });
});
