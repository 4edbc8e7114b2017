import { refusalOf } from '@/test/refusal';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { db } from '@/lib/db';
import { newEvent } from '@/lib/events/service';
import { createMerchant } from '@/lib/merchants/service';
import { AUTHORIZATION_DAYS } from './authorization';
import { cancelPayment, capturePayment } from './capture';
import { forgetAuthorization } from './facts';
import { authorizedPayment } from './paid-payment.fixture';
import * as repository from './repository';
import { contextOf } from '@/test/context';

// Each rule of a capture or cancel is kept twice: in lib/payments/capture.ts, on the payment as this process
// knows it, for a person's message; and in the statement's UPDATE (lib/payments/repository.ts), on the row as it
// is. Each test runs both paths on the same data: once when this process knows (the pre-check refuses and no
// statement is sent), once when only the row knows, because another process changed it after this one
// remembered the authorization (the statement refuses). Both must be the same refusal, in the same words.

let merchantId: string;

beforeEach(async () => {
  merchantId = (await createMerchant(await db(), { name: 'Rules Shop', hosts: ['shop.example.com'] })).id;
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** Another process's write: this one's memory of the payment stays as it was. */
async function changedElsewhere(
  paymentId: string,
  data: Parameters<Awaited<ReturnType<typeof db>>['payment']['update']>[0]['data'],
) {
  await (await db()).payment.update({ where: { id: paymentId }, data });
}

describe('an authorization is captured or canceled once: status requires_capture', () => {
  it('capture: refused alike by the pre-check and by the statement', async () => {
    const client = await db();
    const statements = vi.spyOn(repository, 'capturePaymentInOneStatement');

    // this process captured it, so it knows
    const known = await authorizedPayment(merchantId);
    await capturePayment(contextOf(client, merchantId), known.id, {});
    statements.mockClear();
    const byPreCheck = await refusalOf(capturePayment(contextOf(client, merchantId), known.id, {}));
    expect(statements).not.toHaveBeenCalled();

    // another process captured it: this one still remembers an authorization
    const stale = await authorizedPayment(merchantId);
    await changedElsewhere(stale.id, { status: 'succeeded', amountCaptured: 5000 });
    const byStatement = await refusalOf(capturePayment(contextOf(client, merchantId), stale.id, {}));
    expect(statements).toHaveBeenCalledTimes(1);

    expect(byPreCheck).toMatchObject({ status: 409, code: 'payment_not_capturable' });
    expect(byStatement).toEqual(byPreCheck);
  });

  it('cancel: refused alike by the pre-check and by the statement', async () => {
    const client = await db();
    const statements = vi.spyOn(repository, 'cancelPaymentInOneStatement');

    const known = await authorizedPayment(merchantId);
    await capturePayment(contextOf(client, merchantId), known.id, {});
    const byPreCheck = await refusalOf(cancelPayment(contextOf(client, merchantId), known.id));
    expect(statements).not.toHaveBeenCalled();

    const stale = await authorizedPayment(merchantId);
    await changedElsewhere(stale.id, { status: 'succeeded', amountCaptured: 5000 });
    const byStatement = await refusalOf(cancelPayment(contextOf(client, merchantId), stale.id));
    expect(statements).toHaveBeenCalledTimes(1);

    expect(byPreCheck).toMatchObject({ status: 409, code: 'payment_not_cancelable' });
    expect(byStatement).toEqual(byPreCheck);
    expect(await client.payment.findUniqueOrThrow({ where: { id: stale.id } })).toMatchObject({
      status: 'succeeded',
      canceledAt: null,
    });
  });
});

describe(`an authorization holds for ${AUTHORIZATION_DAYS} days`, () => {
  it('capture after them: refused alike by the pre-check and by the statement', async () => {
    const client = await db();
    const statements = vi.spyOn(repository, 'capturePaymentInOneStatement');
    const eightDaysAgo = new Date(Date.now() - (AUTHORIZATION_DAYS + 1) * 86_400_000);

    // an authorization made eight days ago and not swept yet, read afresh: the pre-check sees it has lapsed
    const lapsed = await authorizedPayment(merchantId);
    await changedElsewhere(lapsed.id, { createdAt: eightDaysAgo });
    forgetAuthorization(lapsed.id);
    const byPreCheck = await refusalOf(capturePayment(contextOf(client, merchantId), lapsed.id, {}));
    expect(statements).not.toHaveBeenCalled();

    // the sweep of a process whose clock is eight days ahead canceled it, by its own statement: this process
    // still remembers an authorization of today
    const swept = await authorizedPayment(merchantId);
    const sweptAt = new Date(swept.createdAt.getTime() + (AUTHORIZATION_DAYS + 1) * 86_400_000);
    const event = newEvent(merchantId, 'payment.canceled', { id: swept.id });
    const change = { paymentId: swept.id, merchantId, at: sweptAt, reason: 'expired' as const };
    expect(await repository.cancelPaymentInOneStatement(client, change, event)).toBe(true);
    statements.mockClear();
    const byStatement = await refusalOf(capturePayment(contextOf(client, merchantId), swept.id, {}));
    expect(statements).toHaveBeenCalledTimes(1);

    expect(byPreCheck).toMatchObject({ status: 409, code: 'payment_not_capturable' });
    expect(byPreCheck.userMessage).toMatch(/expired/);
    expect(byStatement).toEqual(byPreCheck);
  });
});

describe('a capture takes at most the amount authorized', () => {
  it('is refused before anything is sent; the statement keeps the same bound on the row', async () => {
    const client = await db();
    const statements = vi.spyOn(repository, 'capturePaymentInOneStatement');
    const authorization = await authorizedPayment(merchantId);
    expect(
      await refusalOf(capturePayment(contextOf(client, merchantId), authorization.id, { amount_to_capture: 5001 })),
    ).toEqual({
      status: 400,
      code: 'parameter_invalid',
      userMessage: 'You can capture at most US$50.00.',
    });
    expect(statements).not.toHaveBeenCalled();
    // the amount never changes, so no stale read lets the pre-check pass: the statement's own bound, sent as if it
    // had, writes nothing
    const event = newEvent(merchantId, 'payment.succeeded', { id: authorization.id });
    const change = { paymentId: authorization.id, merchantId, at: new Date(), amountToCapture: 5001 };
    expect(await repository.capturePaymentInOneStatement(client, change, event)).toBe(false);
    expect(await client.payment.findUniqueOrThrow({ where: { id: authorization.id } })).toMatchObject({
      status: 'requires_capture',
      amountCaptured: 0,
    });
  });
});
