import { TEST_CARDS } from '@/lib/payments/cards';
import { API_OPERATIONS, type ApiOperation } from './operations';

// Code shown on /docs. The webhook route is run by webhook-snippet.test.ts against real signatures; the
// curl commands are made from the operations's examples, which document.test.ts parses with each
// route's schema.

/** The body of /docs#testing's "Decline a card"; generated-client.test.ts compiles it with the examples. */
export const DECLINE_CARD_BODY = { payment_method: 'card', card_number: TEST_CARDS[1].number };

export const WEBHOOK_ROUTE_FILE = 'app/api/webhooks/route.ts';

export const WEBHOOK_ROUTE_SNIPPET = `import { Webhook } from 'standardwebhooks';

const webhook = new Webhook(process.env.SANDBOX_WEBHOOK_SECRET!); // whsec_…

export async function POST(request: Request) {
  // the raw body: JSON parsed and serialized again would not match the signature
  const body = await request.text();
  let event: { id: string; type: string; data: { object: any } };
  try {
    event = webhook.verify(body, Object.fromEntries(request.headers)) as typeof event;
  } catch {
    return new Response('invalid signature', { status: 400 }); // tampered, or older than 5 minutes
  }
  if (event.type === 'checkout_session.completed') {
    // fulfil the order, once per event.id: a delivery may arrive more than once
  }
  return new Response(null, { status: 204 });
}
`;

export const VERIFY_WEBHOOK_FILE = 'verify-webhook.ts';

/** Standard Webhooks verified by hand, for a stack without the library; verify-snippet.test.ts runs it. */
export const VERIFY_WEBHOOK_SNIPPET = `import { createHmac, timingSafeEqual } from 'node:crypto';

// true when the delivery is recent and one of its v1 signatures is the HMAC of its id, timestamp and raw body
export function verifyWebhook(body: string, headers: Headers, secret: string): boolean {
  const id = headers.get('webhook-id');
  const timestamp = headers.get('webhook-timestamp');
  if (!id || !timestamp || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64'); // what follows whsec_, base64-decoded
  const expected = createHmac('sha256', key).update(\`\${id}.\${timestamp}.\${body}\`).digest();
  return (headers.get('webhook-signature') ?? '').split(' ').some((signature) => {
    const given = Buffer.from(signature.slice('v1,'.length), 'base64');
    return signature.startsWith('v1,') && given.length === expected.length && timingSafeEqual(given, expected);
  });
}
`;

/**
 * A curl command for an operation, with its example body (or `body`). `$SANDBOX_API_KEY` stands for the key,
 * `id` for the path's `{id}`.
 */
export function curlFor(
  operation: ApiOperation,
  baseUrl: string,
  options: { id?: string; body?: Record<string, unknown> } = {},
): string {
  const path = operation.path.replace('{id}', options.id ?? '{id}');
  const body = options.body ?? operation.body?.example;
  const lines = [
    `curl${operation.method === 'GET' || operation.method === 'POST' ? '' : ` -X ${operation.method}`} ${baseUrl.replace(/\/$/, '')}${path}`,
  ];
  if (operation.scope) lines.push('-H "Authorization: Bearer $SANDBOX_API_KEY"');
  if (body) lines.push('-H "Content-Type: application/json"');
  if (operation.idempotency === 'required') lines.push('-H "Idempotency-Key: $(uuidgen)"');
  if (body) lines.push(`-d '${JSON.stringify(body, null, 2).replace(/\n/g, '\n  ')}'`);
  else if (operation.method === 'POST') lines.push('-X POST');
  return lines.join(' \\\n  ');
}

export function operationById(operationId: string): ApiOperation {
  const operation = API_OPERATIONS.find((candidate) => candidate.operationId === operationId);
  if (!operation) throw new Error(`no operation ${operationId} in lib/openapi/operations.ts`);
  return operation;
}
