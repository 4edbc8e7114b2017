/** The merchant's return_url with session_id added to its query, keeping the query it already has. */
export function returnUrlWithSessionId(returnUrl: string, sessionId: string): string {
  const url = new URL(returnUrl);
  url.searchParams.set('session_id', sessionId);
  return url.toString();
}
