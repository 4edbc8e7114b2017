import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { MedusaError } from '@medusajs/framework/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxPaymentProviderService } from '../src';
import { loadPaymentModule, type PaymentModule } from './medusa-app';
import { api, DECLINED, eventually, pay, provider, sessionId } from './support';

// Real deliveries: the sandbox's worker POSTs each event, signed with the endpoint's secret, to a local
// receiver standing where Medusa's /hooks/payment/sandbox_test route would; the provider verifies the raw
// body and headers exactly as received and says what Medusa should do.

type Delivery = { raw: Buffer; headers: http.IncomingHttpHeaders; event: any };

const deliveries: Delivery[] = [];
let receiver: http.Server;
let sandbox: SandboxPaymentProviderService;
let medusa: PaymentModule;

beforeAll(async () => {
  receiver = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks);
      deliveries.push({ raw, headers: request.headers, event: JSON.parse(raw.toString('utf8')) });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  const endpoint = await api('POST', '/v1/webhook-endpoints', {
    url: `http://127.0.0.1:${port}/hooks/payment/sandbox_test`,
    events: ['*'],
  });
  expect(endpoint.status).toBe(201);
  sandbox = provider({ webhookSecret: endpoint.json.secret });
  medusa = await loadPaymentModule({ ...(sandbox as any).options_ });
});

afterAll(async () => {
  await medusa?.shutdown();
  await new Promise((resolve) => receiver?.close(resolve));
});

function delivered(type: string, checkoutSessionId: string): Promise<Delivery> {
  return eventually(
    async () =>
      deliveries.find(
        ({ event }) =>
          event.type === type &&
          (event.data.object.id === checkoutSessionId || event.data.object.checkout_session_id === checkoutSessionId),
      ),
    `${type} of ${checkoutSessionId} to be delivered`,
  );
}

function payload({ raw, headers, event }: Delivery) {
  return { data: event, rawData: raw, headers: headers as Record<string, unknown> };
}

describe('webhooks', () => {
  it('maps a paid session’s signed deliveries to captured, with the Medusa session and the amount in major units', async () => {
    const id = sessionId();
    const { data } = await sandbox.initiatePayment({ amount: 37.5, currency_code: 'usd', data: { session_id: id } });
    const checkoutSessionId = data!.checkout_session_id as string;
    await pay(checkoutSessionId);
    for (const type of ['checkout_session.completed', 'payment.succeeded']) {
      const result = await sandbox.getWebhookActionAndData(payload(await delivered(type, checkoutSessionId)));
      expect(result.action).toBe('captured');
      expect(result.data?.session_id).toBe(id);
      expect(Number(result.data?.amount)).toBe(37.5);
    }
    // through Medusa's payment module, by the provider's id as the webhook route gives it
    const viaModule = await medusa.service.getWebhookActionAndData({
      provider: 'sandbox_test',
      payload: payload(await delivered('payment.succeeded', checkoutSessionId)),
    });
    expect([viaModule.action, viaModule.data?.session_id]).toEqual(['captured', id]);
  });

  it('refuses a tampered body, a forged signature and a delivery signed with another secret', async () => {
    const { data } = await sandbox.initiatePayment({
      amount: 10,
      currency_code: 'usd',
      data: { session_id: sessionId() },
    });
    await pay(data!.checkout_session_id as string);
    const genuine = await delivered('payment.succeeded', data!.checkout_session_id as string);

    const tampered = Buffer.from(genuine.raw.toString('utf8').replace('"amount":1000', '"amount":1'));
    expect(tampered.equals(genuine.raw)).toBe(false);
    const refusal = sandbox.getWebhookActionAndData({ ...payload(genuine), rawData: tampered });
    await expect(refusal).rejects.toThrow(/^Sandbox payments webhook refused: /);
    await expect(refusal).rejects.toBeInstanceOf(MedusaError);

    const forged = { ...genuine.headers, 'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')}` };
    await expect(sandbox.getWebhookActionAndData({ ...payload(genuine), headers: forged })).rejects.toThrow(/refused/);
    await expect(provider().getWebhookActionAndData(payload(genuine))).rejects.toThrow(/refused/);
    const unsigned = { 'content-type': 'application/json' };
    await expect(sandbox.getWebhookActionAndData({ ...payload(genuine), headers: unsigned })).rejects.toThrow(
      /refused/,
    );
  });

  it('maps a decline to failed, an expired session to canceled, and a refund’s events to not_supported naming the session', async () => {
    const declinedSession = sessionId();
    const declined = await sandbox.initiatePayment({
      amount: 4,
      currency_code: 'usd',
      data: { session_id: declinedSession },
    });
    await pay(declined.id, DECLINED);
    const failed = await sandbox.getWebhookActionAndData(payload(await delivered('payment.failed', declined.id)));
    expect([failed.action, failed.data?.session_id]).toEqual(['failed', declinedSession]);

    const expiredSession = sessionId();
    const expired = await sandbox.initiatePayment({
      amount: 5,
      currency_code: 'usd',
      data: { session_id: expiredSession },
    });
    await sandbox.deletePayment({ data: expired.data });
    const canceled = await sandbox.getWebhookActionAndData(
      payload(await delivered('checkout_session.expired', expired.id)),
    );
    expect([canceled.action, canceled.data?.session_id]).toEqual(['canceled', expiredSession]);

    const refundedSession = sessionId();
    const paid = await sandbox.initiatePayment({
      amount: 6,
      currency_code: 'usd',
      data: { session_id: refundedSession },
    });
    await pay(paid.id);
    const authorized = await sandbox.authorizePayment({ data: paid.data });
    const refunded = await sandbox.refundPayment({
      amount: 2.5,
      data: authorized.data,
      context: { idempotency_key: `r-${refundedSession}` },
    });
    const refundId = (refunded.data?.refund_request_ids as string[])[0];
    for (const type of ['refund_request.created', 'refund.completed']) {
      const delivery = await eventually(
        async () => deliveries.find(({ event }) => event.type === type && event.data.object.id === refundId),
        `${type} of ${refundId}`,
      );
      const result = await sandbox.getWebhookActionAndData(payload(delivery));
      expect(result.action).toBe('not_supported');
      expect(result.data?.session_id).toBe(refundedSession);
      expect(Number(result.data?.amount)).toBe(2.5);
    }
  });
});
