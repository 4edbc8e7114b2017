// Approved websites are hosts (`hostname[:port]`, lowercase) matched exactly: no subdomain or wildcard
// match, so `shop.example.com` does not approve `evil.shop.example.com` or `shop.example.com:8080`.

/** The canonical form of a host typed by a person, or null when it is not one. */
export function normalizeHost(input: string): string | null {
  const trimmed = input.trim().toLowerCase();
  // a wildcard would never match (hosts are matched exactly), so it is refused rather than kept
  if (!trimmed || /[\s/?#@\\*]/.test(trimmed)) return null;
  try {
    const url = new URL(`http://${trimmed}`);
    if (url.username || url.password || url.pathname !== '/') return null;
    return withoutDefaultPort(url.host);
  } catch {
    return null;
  }
}

/** The host a URL is on, in the same canonical form. */
export function hostOfUrl(url: URL): string {
  return withoutDefaultPort(url.host.toLowerCase());
}

function withoutDefaultPort(host: string): string {
  return host.replace(/:(80|443)$/, '');
}
