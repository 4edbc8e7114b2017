import { createHash } from 'node:crypto';
import { env } from '@/lib/env';

// /docs is the same page for every visitor, but it shows settings of this deployment read when it runs
// (APP_URL in every example, the rate limits). So it is not rendered at build: proxy.ts rewrites /docs to
// /docs/<edition>, a name for those settings, and app/docs/[edition]/page.tsx is rendered the first time
// an edition is asked for and served from Next's cache after that. Servers of one build with other
// settings (tests on other ports) each get their own edition.

export function docsEdition(): string {
  const settings = env();
  return createHash('sha256')
    .update(
      JSON.stringify([
        settings.APP_URL,
        settings.RATE_LIMIT_PER_SECOND,
        settings.RATE_LIMIT_BURST,
        settings.RATE_LIMIT_MERCHANT_PER_SECOND ?? null,
        settings.RATE_LIMIT_MERCHANT_BURST ?? null,
        settings.API_AUTH_FAILURES_PER_MINUTE,
      ]),
    )
    .digest('base64url')
    .slice(0, 16);
}
