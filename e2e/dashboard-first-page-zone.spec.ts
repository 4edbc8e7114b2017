import { expect, test, type Page, type Response } from '@playwright/test';
import { newMerchant, PASSWORD } from './dashboard-support';

// A merchant in Toronto: the very first dashboard page drawn after signing up or in is already in Toronto's
// time, not drawn in UTC and corrected by a second render.

const TORONTO = 'America/Toronto';
test.use({ timezoneId: TORONTO });

/** The zone the server drew the dashboard's first answer in, read from that answer's own payload. */
async function zoneOfFirstDashboardAnswer(page: Page, submit: () => Promise<void>): Promise<string | undefined> {
  const answers: Response[] = [];
  const collect = (response: Response) => answers.push(response);
  page.on('response', collect);
  await submit();
  await page.waitForURL('**/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  page.off('response', collect);
  for (const answer of answers) {
    if (answer.request().method() !== 'POST' && !answer.url().includes('/dashboard')) continue;
    const body = await answer.text().catch(() => '');
    // the dashboard layout's zone provider carries its zone in the React payload
    const zone = /\\?"timeZone\\?":\\?"([A-Za-z_/+-]+)\\?"/.exec(body)?.[1];
    if (zone) return zone;
  }
  return undefined;
}

test('the first page after sign-up and after sign-in is drawn in the browser’s zone', async ({ browser }) => {
  const merchant = newMerchant('Toronto Tea');

  const signUpContext = await browser.newContext({ timezoneId: TORONTO });
  const signingUp = await signUpContext.newPage();
  await signingUp.goto('/signup');
  await signingUp.getByLabel('Business name').fill(merchant.businessName);
  await signingUp.getByLabel('E-mail').fill(merchant.email);
  await signingUp.getByLabel('Password').fill(PASSWORD);
  const afterSignUp = await zoneOfFirstDashboardAnswer(signingUp, () =>
    signingUp.getByRole('button', { name: 'Create account' }).click(),
  );
  expect(afterSignUp).toBe(TORONTO);
  await signUpContext.close();

  // a fresh browser: no cookie from before
  const signInContext = await browser.newContext({ timezoneId: TORONTO });
  const signingIn = await signInContext.newPage();
  await signingIn.goto('/login');
  await signingIn.getByLabel('E-mail').fill(merchant.email);
  await signingIn.getByLabel('Password').fill(PASSWORD);
  const afterSignIn = await zoneOfFirstDashboardAnswer(signingIn, () =>
    signingIn.getByRole('button', { name: 'Sign in' }).click(),
  );
  expect(afterSignIn).toBe(TORONTO);
  await signInContext.close();
});
