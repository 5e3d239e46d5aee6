/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // A trailing slash is answered, not redirected with a bare 308, as the API app answers /v1/opportunities/.
  skipTrailingSlashRedirect: true,
  // `npm test` type-checks (tsc) and lints (eslint) on its own; the build need not repeat it.
  typescript: { ignoreBuildErrors: true },
  // Route bundles load on their first request, not all at start: preloading them (Next's default)
  // held ~150 MB more at ready, each route's copy of the shared chunks among it (bench:footprint).
  experimental: { preloadEntriesOnStart: false },
  // Native, WASM or very large server packages stay out of the bundle and load from node_modules.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "pglite-prisma-adapter",
    "@prisma/adapter-pg",
    "pg",
    "@node-rs/argon2",
    "ioredis",
    "ccxt",
    // One metrics registry per process, whichever copy of lib/ records (lib/observability/metrics.ts).
    "prom-client",
  ],
};

export default nextConfig;
