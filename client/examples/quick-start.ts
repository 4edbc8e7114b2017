import { Sandbox } from '@sandbox-payments/client';

const sandbox = new Sandbox({ apiKey: process.env.SANDBOX_API_KEY!, baseUrl: 'http://localhost:3000' });

const session = await sandbox.checkoutSessions.create({
  order_reference: 'order-1001',
  currency: 'USD',
  items: [{ name: 'T-shirt', quantity: 2, unit_amount: 1500 }],
  shipping_amount: 500,
  tax_amount: 250,
  amount: 3750,
  return_url: 'https://shop.example.com/thanks',
  cancel_url: 'https://shop.example.com/cart',
});
console.log(session.url); // send the customer there
