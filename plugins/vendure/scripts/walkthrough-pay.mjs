// walkthrough-checkout.sh's customer: pays a checkout session on its hosted page (the URL given) with the test
// card, and waits to be sent back to the storefront. Playwright is the repository's; CHROMIUM names a browser.
import { chromium } from 'playwright';

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || undefined });
try {
  const page = await browser.newPage();
  await page.goto(process.argv[2]);
  await page.getByLabel('Card number').pressSequentially('4242424242424242');
  await page.getByLabel('Expiry (MM / YY)').pressSequentially('1234');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Name on card').fill('Ada Lovelace');
  const sentBack = page.waitForRequest((request) => request.url().startsWith('http://localhost:4200/'));
  await page.getByRole('button', { name: /^Pay / }).click();
  console.log('sent back to', (await sentBack).url());
} finally {
  await browser.close();
}
