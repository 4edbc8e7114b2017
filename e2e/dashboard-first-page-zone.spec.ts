import { expect, test, type Page } from '@playwright/test';
import { newMerchant, PASSWORD } from './dashboard-support';

// A merchant in Toronto: the very first dashboard page drawn after signing up or in is already in Toronto's
// time, not drawn in UTC and corrected by a second render.

const TORONTO = 'America/Toronto';
test.use({ timezoneId: TORONTO });

/** The browser's zone as the cookie of the request that `submit` sends to `path` reports it (the server's only way to know it). */
async function zoneSentWith(page: Page, path: string, submit: () => Promise<void>): Promise<string | undefined> {
  const sent = page.waitForRequest((request) => new URL(request.url()).pathname === path);
  await submit();
  const cookies = (await (await sent).allHeaders()).cookie ?? '';
  const zone = /(?:^|;\s*)dashboard-time-zone=([^;]+)/.exec(cookies)?.[1];
  return zone === undefined ? undefined : decodeURIComponent(zone);
}

/**
 * The zone the server drew the dashboard's first answer in, read from that answer's own payload. The answer is
 * taken through a route so its body is read before the browser moves on (a navigation drops a body not yet read).
 */
function zoneOfFirstDashboardAnswer(page: Page): Promise<string | undefined> {
  let taken = false;
  return new Promise((resolve, reject) => {
    void page.route(
      (url) => url.pathname === '/dashboard',
      async (route) => {
        if (taken || route.request().method() !== 'GET') return route.continue();
        taken = true;
        try {
          const answer = await route.fetch();
          const body = await answer.text();
          await route.fulfill({ response: answer, body });
          // the dashboard layout's zone provider carries its zone in the React payload
          resolve(/\\?"timeZone\\?":\\?"([A-Za-z_/+-]+)\\?"/.exec(body)?.[1]);
        } catch (error) {
          reject(error as Error);
        }
      },
    );
  });
}

test('the first page after sign-up and after sign-in is drawn in the browser’s zone', async ({ browser }) => {
  const merchant = newMerchant('Toronto Tea');

  // signing up: the form's own request already says the zone, so the page it leads to is drawn in it
  const signUpContext = await browser.newContext({ timezoneId: TORONTO });
  const signingUp = await signUpContext.newPage();
  await signingUp.goto('/signup');
  await signingUp.getByLabel('Business name').fill(merchant.businessName);
  await signingUp.getByLabel('E-mail').fill(merchant.email);
  await signingUp.getByLabel('Password').fill(PASSWORD);
  const sentWithSignUp = await zoneSentWith(signingUp, '/signup', () =>
    signingUp.getByRole('button', { name: 'Create account' }).click(),
  );
  expect(sentWithSignUp).toBe(TORONTO);
  await signingUp.waitForURL('**/dashboard');
  await expect(signingUp.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  await signUpContext.close();

  // signing in, in a fresh browser with no cookie from before: the first dashboard answer is in Toronto's zone
  const signInContext = await browser.newContext({ timezoneId: TORONTO });
  const signingIn = await signInContext.newPage();
  await signingIn.goto('/login');
  await signingIn.getByLabel('E-mail').fill(merchant.email);
  await signingIn.getByLabel('Password').fill(PASSWORD);
  const firstAnswer = zoneOfFirstDashboardAnswer(signingIn);
  const sentWithSignIn = await zoneSentWith(signingIn, '/api/auth/callback/credentials', () =>
    signingIn.getByRole('button', { name: 'Sign in' }).click(),
  );
  expect(sentWithSignIn).toBe(TORONTO);
  expect(await firstAnswer).toBe(TORONTO);
  await signingIn.waitForURL('**/dashboard');
  await signInContext.close();
});
