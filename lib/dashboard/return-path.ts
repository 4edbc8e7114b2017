/**
 * Where to go after signing in: a dashboard path from our own origin, never another site (an open
 * redirect would let a phishing link bounce through our sign-in page).
 */
export function safeReturnPath(value: string | string[] | undefined | null): string {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return '/dashboard';
  let path = text;
  try {
    // next-auth hands back absolute URLs of our origin; keep only the path
    if (/^https?:\/\//i.test(text)) {
      const url = new URL(text);
      path = `${url.pathname}${url.search}`;
    }
  } catch {
    return '/dashboard';
  }
  return /^\/dashboard([/?][\w\-./?=&%]*)?$/.test(path) && !path.includes('//') && !path.includes('\\')
    ? path
    : '/dashboard';
}

/**
 * The dashboard address a request asked for, as proxy.ts saw it: a page rendering on the server cannot
 * read its own URL, and the sign-in page needs it to send the merchant back there afterwards.
 */
export const REQUESTED_PATH_HEADER = 'x-dashboard-requested-path';

/** The sign-in page, with the page to come back to when it is one of ours (and not the dashboard's home). */
export function signInAddress(requestedPath: string | null | undefined): string {
  const returnTo = safeReturnPath(requestedPath);
  return returnTo === '/dashboard' ? '/login' : `/login?callbackUrl=${encodeURIComponent(returnTo)}`;
}
