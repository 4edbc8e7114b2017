import { beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/core/errors';
import { advanceClock, resetClock } from '@/lib/core/clock';
import { db } from '@/lib/db';
import { createMerchant, setPaymentMethods } from '@/lib/merchants/service';
import {
  createPaymentLinkFromForm,
  setPaymentLinkActive,
  updatePaymentLinkFromForm,
  type PaymentLinkEditInput,
  type PaymentLinkFormInput,
} from './dashboard-form';
import { createPaymentLinkInput } from './schemas';
import { serializePaymentLink } from './serialize';
import { createPaymentLink, getPaymentLink, listPaymentLinks, updatePaymentLink } from './service';
import { contextOf } from '@/test/context';

let merchantId: string;
let otherMerchantId: string;

const input = (overrides: Record<string, unknown> = {}) =>
  createPaymentLinkInput.parse({ name: 'Yoga class', amount: 2500, currency: 'CAD', ...overrides });

async function refusal(promise: Promise<unknown>): Promise<Pick<ApiError, 'status' | 'code' | 'param'>> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ApiError);
  const { status, code, param } = error as ApiError;
  return { status, code, param };
}

beforeEach(async () => {
  const client = await db();
  merchantId = (await createMerchant(client, { name: 'Studio', hosts: ['studio.example.com'] })).id;
  otherMerchantId = (await createMerchant(client, { name: 'Other', hosts: ['other.example.com'] })).id;
});

describe('createPaymentLink', () => {
  it('keeps an explicit method list, and no list as "decided at pay time"', async () => {
    const client = await db();
    const chosen = await createPaymentLink(contextOf(client, merchantId), input({ payment_methods: ['interac'] }));
    expect(serializePaymentLink(chosen)).toMatchObject({
      object: 'payment_link',
      name: 'Yoga class',
      description: null,
      amount: 2500,
      currency: 'CAD',
      payment_methods: ['interac'],
      after_payment_url: null,
      active: true,
      url: `http://localhost:3000/pay/${chosen.id}`,
    });
    const automatic = await createPaymentLink(contextOf(client, merchantId), input());
    expect(automatic.paymentMethods).toEqual([]);
    expect(serializePaymentLink(automatic).payment_methods).toBeNull();
  });

  it('takes an after-payment URL only on an approved website, matched exactly', async () => {
    const client = await db();
    const link = await createPaymentLink(
      contextOf(client, merchantId),
      input({ after_payment_url: 'HTTPS://STUDIO.example.com/Thanks?x=1' }),
    );
    expect(link.afterPaymentUrl).toBe('https://STUDIO.example.com/Thanks?x=1');
    for (const url of [
      'https://evil.studio.example.com/',
      'https://studio.example.com:8443/',
      'https://other.example.com/',
      'http://localhost:3000/pay',
    ]) {
      expect(
        await refusal(createPaymentLink(contextOf(client, merchantId), input({ after_payment_url: url }))),
        url,
      ).toEqual({
        status: 400,
        code: 'url_not_approved',
        param: 'after_payment_url',
      });
    }
  });

  it('holds methods to the session rules: approved, and able to take the currency', async () => {
    const client = await db();
    await setPaymentMethods(contextOf(client, merchantId), ['card', 'interac']);
    expect(
      await refusal(createPaymentLink(contextOf(client, merchantId), input({ payment_methods: ['card', 'usdc'] }))),
    ).toEqual({
      status: 400,
      code: 'payment_method_not_approved',
      param: 'payment_methods.1',
    });
    expect(
      await refusal(
        createPaymentLink(contextOf(client, merchantId), input({ currency: 'USD', payment_methods: ['interac'] })),
      ),
    ).toEqual({
      status: 400,
      code: 'payment_method_unavailable',
      param: 'payment_methods.0',
    });
    await setPaymentMethods(contextOf(client, merchantId), ['interac']);
    expect(await refusal(createPaymentLink(contextOf(client, merchantId), input({ currency: 'USD' })))).toEqual({
      status: 400,
      code: 'payment_method_unavailable',
      param: 'payment_methods',
    });
    expect(await client.paymentLink.count({ where: { merchantId } })).toBe(0);
  });
});

describe('one merchant never reaches another’s links', () => {
  it('reads, lists and changes only its own', async () => {
    const client = await db();
    const theirs = await createPaymentLink(contextOf(client, otherMerchantId), input());
    expect(await getPaymentLink(contextOf(client, merchantId), theirs.id)).toBeNull();
    expect(await refusal(updatePaymentLink(contextOf(client, merchantId), theirs.id, { active: false }))).toEqual({
      status: 404,
      code: 'resource_missing',
      param: 'id',
    });
    expect((await listPaymentLinks(contextOf(client, merchantId), { limit: 10 })).rows).toEqual([]);
    expect(
      await refusal(listPaymentLinks(contextOf(client, merchantId), { limit: 10, starting_after: theirs.id })),
    ).toMatchObject({ code: 'resource_missing' });
    // the dashboard's actions go through the same scoped services
    expect(await setPaymentLinkActive(contextOf(client, merchantId), theirs.id, false)).toEqual({
      status: 'error',
      message: 'This payment link was not found.',
    });
    expect(
      await updatePaymentLinkFromForm(contextOf(client, merchantId), theirs.id, {
        name: 'Mine now',
        description: '',
        amount: '1.00',
        quantity: null,
      }),
    ).toMatchObject({ status: 'error' });
    expect(await client.paymentLink.findUniqueOrThrow({ where: { id: theirs.id } })).toMatchObject({
      name: 'Yoga class',
      active: true,
    });
  });
});

describe('updatePaymentLink', () => {
  it('changes only what it is given; a null or blank description clears it', async () => {
    const client = await db();
    const link = await createPaymentLink(contextOf(client, merchantId), input({ description: 'Sixty minutes' }));
    const renamed = await updatePaymentLink(contextOf(client, merchantId), link.id, { name: 'Yoga – drop-in' });
    expect(renamed).toMatchObject({ name: 'Yoga – drop-in', description: 'Sixty minutes', active: true, amount: 2500 });
    expect(renamed.updatedAt.getTime()).toBeGreaterThanOrEqual(link.updatedAt.getTime());
    expect(
      (await updatePaymentLink(contextOf(client, merchantId), link.id, { description: null })).description,
    ).toBeNull();
    expect(
      (await updatePaymentLink(contextOf(client, merchantId), link.id, { description: 'x', active: false })).active,
    ).toBe(false);
    expect(
      (await updatePaymentLink(contextOf(client, merchantId), link.id, { description: '' })).description,
    ).toBeNull();
  });
});

describe('updatePaymentLink: price and quantities', () => {
  it('replaces adjustable_quantity with create’s defaults, and turns it off', async () => {
    const client = await db();
    const link = await createPaymentLink(contextOf(client, merchantId), input());
    const ranged = { enabled: true, minimum: 2, maximum: 6 };
    const updated = await updatePaymentLink(contextOf(client, merchantId), link.id, { adjustable_quantity: ranged });
    expect(serializePaymentLink(updated).adjustable_quantity).toEqual(ranged);
    const defaults = await updatePaymentLink(contextOf(client, merchantId), link.id, {
      adjustable_quantity: { enabled: true },
    });
    expect(serializePaymentLink(defaults).adjustable_quantity).toEqual({ enabled: true, minimum: 1, maximum: 99 });
    const off = await updatePaymentLink(contextOf(client, merchantId), link.id, {
      adjustable_quantity: { enabled: false },
    });
    expect(serializePaymentLink(off).adjustable_quantity).toEqual({ enabled: false, minimum: null, maximum: null });
    expect(off).toMatchObject({ name: 'Yoga class', amount: 2500 });
  });

  it('changes the price, and nothing else it is not given', async () => {
    const client = await db();
    const link = await createPaymentLink(
      contextOf(client, merchantId),
      input({ adjustable_quantity: { enabled: true, maximum: 4 } }),
    );
    const repriced = await updatePaymentLink(contextOf(client, merchantId), link.id, { amount: 3000 });
    expect(repriced).toMatchObject({ amount: 3000, currency: 'CAD', quantityMinimum: 1, quantityMaximum: 4 });
    expect(repriced.updatedAt.getTime()).toBeGreaterThanOrEqual(link.updatedAt.getTime());
  });

  it('refuses a price or a largest quantity whose product is more than one payment, naming what was changed', async () => {
    const client = await db();
    const link = await createPaymentLink(
      contextOf(client, merchantId),
      input({ amount: 1_000_000, adjustable_quantity: { enabled: true, maximum: 10 } }),
    );
    expect(await refusal(updatePaymentLink(contextOf(client, merchantId), link.id, { amount: 10_000_000 }))).toEqual({
      status: 400,
      code: 'parameter_invalid',
      param: 'amount',
    });
    expect(
      await refusal(
        updatePaymentLink(contextOf(client, merchantId), link.id, {
          name: 'Big',
          adjustable_quantity: { enabled: true, maximum: 100 },
        }),
      ),
    ).toEqual({ status: 400, code: 'parameter_invalid', param: 'adjustable_quantity.maximum' });
    expect(await getPaymentLink(contextOf(client, merchantId), link.id)).toMatchObject({
      name: 'Yoga class',
      amount: 1_000_000,
      quantityMaximum: 10,
    });
    // without a range any price up to one payment's limit is fine
    const off = await updatePaymentLink(contextOf(client, merchantId), link.id, {
      adjustable_quantity: { enabled: false },
    });
    expect((await updatePaymentLink(contextOf(client, merchantId), off.id, { amount: 99_999_999 })).amount).toBe(
      99_999_999,
    );
  });

  it('never lets a concurrent price and quantity change pass the limit together', async () => {
    const client = await db();
    // alone, each change keeps within one payment (9,000,000 × 10 and 1,000,000 × 50); both would be 450,000,000
    for (let round = 0; round < 5; round += 1) {
      const link = await createPaymentLink(
        contextOf(client, merchantId),
        input({ amount: 1_000_000, adjustable_quantity: { enabled: true, maximum: 10 } }),
      );
      const outcomes = await Promise.allSettled([
        updatePaymentLink(contextOf(client, merchantId), link.id, { amount: 9_000_000 }),
        updatePaymentLink(contextOf(client, merchantId), link.id, {
          adjustable_quantity: { enabled: true, maximum: 50 },
        }),
      ]);
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
      const after = (await getPaymentLink(contextOf(client, merchantId), link.id))!;
      expect(after.amount * after.quantityMaximum!).toBeLessThanOrEqual(99_999_999);
    }
  });
});

describe('updatePaymentLink: metadata', () => {
  it('merges in the UPDATE: concurrent updates with different keys all keep theirs', async () => {
    const client = await db();
    const link = await createPaymentLink(contextOf(client, merchantId), input({ metadata: { base: '0' } }));
    const writers = Array.from({ length: 10 }, (_, i) => `writer${i}`);
    // each on its own pooled connection, so the reads before the UPDATEs overlap
    await Promise.all(
      writers.map((key) => updatePaymentLink(contextOf(client, merchantId), link.id, { metadata: { [key]: 'x' } })),
    );
    const merged = serializePaymentLink((await getPaymentLink(contextOf(client, merchantId), link.id))!).metadata;
    expect(Object.keys(merged).sort()).toEqual(['base', ...writers].sort());
  });

  it('refuses an update whose merged metadata would pass 50 keys, changing nothing', async () => {
    const client = await db();
    const metadata = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'v']));
    const link = await createPaymentLink(contextOf(client, merchantId), input({ metadata }));
    expect(
      await refusal(
        updatePaymentLink(contextOf(client, merchantId), link.id, { active: false, metadata: { k50: 'v' } }),
      ),
    ).toEqual({
      status: 400,
      code: 'parameter_invalid',
      param: 'metadata',
    });
    expect(await getPaymentLink(contextOf(client, merchantId), link.id)).toMatchObject({ active: true, metadata });
    const replaced = await updatePaymentLink(contextOf(client, merchantId), link.id, {
      metadata: { k0: '', k50: 'v' },
    });
    expect(Object.keys(serializePaymentLink(replaced).metadata)).toHaveLength(50);
    expect(serializePaymentLink(replaced).metadata).toMatchObject({ k50: 'v' });
    expect(serializePaymentLink(replaced).metadata).not.toHaveProperty('k0');
  });
});

describe('listPaymentLinks', () => {
  it('pages newest first and filters by active', async () => {
    const client = await db();
    const made = [];
    // a millisecond apart at least, so that newest first is one order (two made in one millisecond tie)
    for (let i = 0; i < 3; i += 1) {
      made.push(await createPaymentLink(contextOf(client, merchantId), input({ name: `Link ${i}`, active: i !== 1 })));
      advanceClock(5);
    }
    resetClock();
    const first = await listPaymentLinks(contextOf(client, merchantId), { limit: 2 });
    expect(first.rows.map((link) => link.name)).toEqual(['Link 2', 'Link 1']);
    expect(first.hasMore).toBe(true);
    const second = await listPaymentLinks(contextOf(client, merchantId), {
      limit: 2,
      starting_after: first.rows[1].id,
    });
    expect(second).toMatchObject({ hasMore: false, rows: [{ name: 'Link 0' }] });
    expect(
      (await listPaymentLinks(contextOf(client, merchantId), { limit: 10, active: 'false' })).rows.map(
        (link) => link.id,
      ),
    ).toEqual([made[1].id]);
  });
});

describe('the dashboard form', () => {
  const form: PaymentLinkFormInput = {
    name: 'Mug',
    description: '',
    amount: '12.50',
    currency: 'USD',
    paymentMethods: null,
    afterPaymentUrl: '',
  };

  it('turns typed major units into cents and keeps the API rules', async () => {
    const client = await db();
    const made = await createPaymentLinkFromForm(contextOf(client, merchantId), form);
    expect('link' in made && made.link).toMatchObject({
      amount: 1250,
      currency: 'USD',
      paymentMethods: [],
      description: null,
      afterPaymentUrl: null,
    });
  });

  it('edits a link: the price as typed, its quantities, and says what customers pay from now on', async () => {
    const client = await db();
    const made = await createPaymentLinkFromForm(contextOf(client, merchantId), { ...form, currency: 'CAD' });
    const link = 'link' in made ? made.link : expect.fail('not made');
    const edit = { name: 'Mug', description: '', amount: '45,50', quantity: { minimum: '1', maximum: '5' } };
    expect(await updatePaymentLinkFromForm(contextOf(client, merchantId), link.id, edit)).toEqual({
      status: 'ok',
      message: 'Saved. Customers who open the link from now on pay CA$45.50; checkouts already started keep CA$12.50.',
    });
    expect(await getPaymentLink(contextOf(client, merchantId), link.id)).toMatchObject({
      amount: 4550,
      quantityMinimum: 1,
      quantityMaximum: 5,
    });
    // the same price typed another way is no new price
    const same = await updatePaymentLinkFromForm(contextOf(client, merchantId), link.id, {
      ...edit,
      amount: 'CA$45.50',
      quantity: null,
    });
    expect(same).toEqual({ status: 'ok', message: 'Saved. Customers see the changes at once.' });
    expect(await getPaymentLink(contextOf(client, merchantId), link.id)).toMatchObject({
      amount: 4550,
      quantityMaximum: null,
    });
  });

  it('refuses an edit beside its field, and changes nothing', async () => {
    const client = await db();
    const made = await createPaymentLinkFromForm(contextOf(client, merchantId), form);
    const link = 'link' in made ? made.link : expect.fail('not made');
    const edit: PaymentLinkEditInput = { name: 'Mug', description: '', amount: '12.50', quantity: null };
    const cases: [Partial<PaymentLinkEditInput>, string, string?][] = [
      [{ amount: '1,500' }, 'amount', '“1,500” could be 1500 or 1.500'],
      [{ amount: 'CA$30' }, 'amount', 'That amount is in CAD, but this one is in USD.'],
      [{ amount: '' }, 'amount'],
      [{ amount: '0' }, 'amount'],
      [{ quantity: { minimum: '5', maximum: '2' } }, 'quantity'],
      [{ quantity: { minimum: '0', maximum: '2' } }, 'quantity'],
      [{ quantity: { minimum: '1', maximum: 'ten' } }, 'quantity'],
      [{ amount: '999999.99', quantity: { minimum: '1', maximum: '2' } }, 'amount', 'more than one payment can be'],
      [{ name: ' ' }, 'name'],
    ];
    for (const [change, field, said] of cases) {
      const outcome = await updatePaymentLinkFromForm(contextOf(client, merchantId), link.id, { ...edit, ...change });
      const errors = outcome.status === 'error' ? outcome.fieldErrors : undefined;
      expect(errors, JSON.stringify(change)).toHaveProperty(field);
      if (said) expect(errors?.[field as 'amount']).toContain(said);
    }
    expect(await getPaymentLink(contextOf(client, merchantId), link.id)).toMatchObject({
      name: 'Mug',
      amount: 1250,
      quantityMaximum: null,
    });
  });

  it('says what is wrong beside the field', async () => {
    const client = await db();
    const cases: [Partial<PaymentLinkFormInput>, string][] = [
      [{ amount: 'twelve' }, 'amount'],
      [{ amount: '0' }, 'amount'],
      [{ name: '  ' }, 'name'],
      [{ afterPaymentUrl: 'javascript:alert(1)' }, 'afterPaymentUrl'],
      [{ afterPaymentUrl: 'https://elsewhere.example.com/' }, 'afterPaymentUrl'],
      [{ paymentMethods: [] }, 'paymentMethods'],
      [{ paymentMethods: ['interac'] }, 'paymentMethods'],
    ];
    for (const [change, field] of cases) {
      const outcome = await createPaymentLinkFromForm(contextOf(client, merchantId), { ...form, ...change });
      expect(
        'state' in outcome && outcome.state.status === 'error' && outcome.state.fieldErrors,
        JSON.stringify(change),
      ).toHaveProperty(field);
    }
    expect(await client.paymentLink.count({ where: { merchantId } })).toBe(0);
  });
});
