/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Native-ish or connection-holding packages stay out of the bundle and load from node_modules.
  serverExternalPackages: ["ioredis", "pg", "@prisma/adapter-pg"],
  typescript: { ignoreBuildErrors: false },
  experimental: {
    // proxy.ts makes Next buffer each body, silently cut at this size (10 MB by default): an
    // operator's whole-installation document may be 32 MiB, which lib/control/api/read-body.ts
    // bounds and refuses past with a clean 413, so the buffer must hold a little more.
    proxyClientMaxBodySize: 33 * 1024 * 1024,
  },
};

export default nextConfig;
