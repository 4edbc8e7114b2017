// app/api/webhooks/route.ts
import { Sandbox } from '@sandbox-payments/client';

const sandbox = new Sandbox({ apiKey: process.env.SANDBOX_API_KEY!, baseUrl: 'http://localhost:3000' });

export async function POST(request: Request) {
  let event;
  try {
    event = sandbox.webhooks.verify(await request.text(), request.headers, process.env.SANDBOX_WEBHOOK_SECRET!);
  } catch {
    return new Response('invalid signature', { status: 400 }); // tampered, or older than 5 minutes
  }
  if (event.type === 'checkout_session.completed') {
    // event.data.object is the paid CheckoutSession: fulfil its order once per event.id (a delivery may repeat)
  }
  return new Response(null, { status: 204 });
}
