/**
 * Where to go after signing in: a dashboard path from our own origin, never another site (an open
 * redirect would let a phishing link bounce through our sign-in page).
 */
export function safeReturnPath(value: string | string[] | undefined): string {
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
  return /^\/dashboard(\/[\w\-./?=&%]*)?$/.test(path) && !path.includes('//') && !path.includes('\\') ? path : '/dashboard';
}
