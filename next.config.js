/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Native-ish or connection-holding packages stay out of the bundle and load from node_modules.
  serverExternalPackages: ["ioredis", "pg", "@prisma/adapter-pg"],
  typescript: { ignoreBuildErrors: false },
  experimental: {
    // proxy.ts makes Next buffer each body, silently cut at this size (10 MB by default). The
    // document import (up to 32 MiB) is outside the proxy's matcher; this bound stays as a
    // safety net should a large body reach a proxied route, which then answers a clean 413.
    proxyClientMaxBodySize: 33 * 1024 * 1024,
  },
};

export default nextConfig;
