import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // Tenant isolation is audited in one folder: only the data access layer reaches Prisma.
    files: ["app/**", "components/**", "lib/**", "server.ts"],
    ignores: ["lib/control/data/**", "lib/generated/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@/lib/generated/prisma", "@/lib/generated/prisma/*", "**/generated/prisma/**"],
              message: "Only lib/control/data/ may use Prisma.",
            },
            {
              group: ["@prisma/*", "@/lib/control/data/db"],
              message: "Only lib/control/data/ may use Prisma.",
            },
          ],
        },
      ],
    },
  },
  globalIgnores([
    ".next/**",
    ".data/**",
    "lib/generated/**",
    "node_modules/**",
    "next-env.d.ts",
    "test-results/**",
    "packages/client/dist/**",
    "tests/fixtures/next-app/.next/**",
  ]),
]);
