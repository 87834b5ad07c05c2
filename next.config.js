/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Native-ish or connection-holding packages stay out of the bundle and load from node_modules.
  serverExternalPackages: ["ioredis", "pg", "@prisma/adapter-pg"],
  typescript: { ignoreBuildErrors: false },
};

export default nextConfig;
