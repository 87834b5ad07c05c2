// Seeds the demo: plans, routes, tenants and limits (through the same import the admin API
// uses), keys, a service token and two users. Idempotent: a second run changes nothing.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Principal } from "@/lib/auth/principal";
import { hashPassword } from "@/lib/auth/password";
import { sha256Hex } from "@/lib/auth/secrets";
import { ensureUser, syncPassword } from "@/lib/data/auth/users";
import { parseDocumentText, validateDocument, type ConfigDocument } from "@/lib/config/document";
import { createApiKey } from "@/lib/data/api-keys";
import { importConfig } from "@/lib/data/import-config";
import { republishIfBehind } from "@/lib/config/reconcile";
import { createServiceToken } from "@/lib/data/tokens";
import { closeDb, db } from "@/lib/data/db";
import { env } from "@/lib/env";
import { closeRedis } from "@/lib/redis";
import { DEMO_KEYS, demoPassword, demoSecret } from "./seed/demo-secrets";

const seeder: Principal = { kind: "system", label: "seed" };

function demoDocument(): ConfigDocument {
  const text = readFileSync(join(import.meta.dirname, "seed", "demo-config.yaml"), "utf8");
  const parsed = parseDocumentText(text, "yaml");
  if (!parsed.ok) throw new Error(`demo-config.yaml: ${parsed.errors.map((e) => e.message).join("; ")}`);
  const valid = validateDocument(parsed.input);
  if (!valid.ok)
    throw new Error(`demo-config.yaml: ${valid.errors.map((e) => `${e.path}: ${e.message}`).join("; ")}`);
  return valid.document;
}

async function main(): Promise<void> {
  const settings = env();
  const secret = settings.NEXTAUTH_SECRET;
  if (!secret) throw new Error("NEXTAUTH_SECRET is not set; the seed derives the demo secrets from it.");
  const document = demoDocument();
  // Keys must exist before key limits can attach to them: tenants first, then keys, then all.
  const withoutKeys = { ...document, tenants: document.tenants?.map((t) => ({ ...t, keys: [] })) };
  const keyCount = await db().apiKey.count({
    where: { tenant: { slug: { in: DEMO_KEYS.map((k) => k.tenant) } } },
  });
  if (keyCount < DEMO_KEYS.length) await importConfig(seeder, withoutKeys);
  const printed: string[] = [];
  for (const { tenant, name } of DEMO_KEYS) {
    const key = demoSecret(secret, "sk", `${tenant}/${name}`);
    const exists = await db().apiKey.findUnique({ where: { hash: sha256Hex(key) } });
    if (!exists) await createApiKey(seeder, tenant, { name }, { presetSecret: key });
    printed.push(`  API key ${`${tenant}/${name}`.padEnd(16)} ${key}`);
  }
  const result = await importConfig(seeder, document);
  const token = demoSecret(secret, "st", "demo-traffic");
  if (!(await db().serviceToken.findUnique({ where: { hash: sha256Hex(token) } }))) {
    await createServiceToken(seeder, { name: "demo-traffic" }, { presetSecret: token });
  }
  printed.push(`  service token (all tenants) ${token}`);

  const acme = await db().tenant.findUniqueOrThrow({ where: { slug: "acme" } });
  const adminEmail = (settings.SLUICE_ADMIN_EMAIL ?? "admin@sluice.local").toLowerCase();
  const generated = demoPassword(secret, "operator");
  const adminPassword = settings.SLUICE_ADMIN_PASSWORD ?? generated;
  const admin = await ensureUser({
    email: adminEmail,
    name: "Operator",
    passwordHash: await hashPassword(adminPassword),
    isOperator: true,
    memberships: [],
  });
  if (!admin.created && settings.SLUICE_ADMIN_PASSWORD)
    await syncPassword(adminEmail, adminPassword, () => hashPassword(adminPassword));
  const viewerPassword = demoPassword(secret, "viewer");
  await ensureUser({
    email: "viewer@acme.example",
    name: "Acme Viewer",
    passwordHash: await hashPassword(viewerPassword),
    isOperator: false,
    memberships: [{ tenantId: acme.id, role: "viewer" }],
  });
  if (admin.created && !settings.SLUICE_ADMIN_PASSWORD)
    printed.push(`  operator ${adminEmail} / ${adminPassword} (generated: shown this once)`);
  else printed.push(`  operator ${adminEmail} (password from SLUICE_ADMIN_PASSWORD or as first printed)`);
  printed.push(`  viewer   viewer@acme.example / ${viewerPassword} (acme, viewer)`);

  await republishIfBehind();
  const version = result.configVersion === null ? "unchanged" : `now version ${result.configVersion}`;
  console.log(`[sluice] demo data ready (config ${version}):\n${printed.join("\n")}`);
}

try {
  await main();
} finally {
  await closeDb();
  await closeRedis();
}
