// `npm run demo:traffic [-- --seconds N]`: realistic mixed traffic with bursts through
// POST /api/check of the local server (http://localhost:$PORT, default 3000) only, for the
// seeded demo tenants, keys and routes, so the usage charts fill within seconds.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { demoSecret, DEMO_KEYS } from "../prisma/seed/demo-secrets";

const secondsArg = process.argv.indexOf("--seconds");
const SECONDS = secondsArg > 0 ? Number(process.argv[secondsArg + 1]) : 60;
if (!Number.isFinite(SECONDS) || SECONDS <= 0 || SECONDS > 3_600)
  throw new Error("--seconds must be 1..3600");
// `npm start` keeps the installation secret in .data/ when NEXTAUTH_SECRET is not given
const secretFile = join(process.env.SLUICE_DATA_DIR ?? ".data", "nextauth-secret");
const secret =
  process.env.NEXTAUTH_SECRET ??
  (existsSync(secretFile) ? readFileSync(secretFile, "utf8").trim() : undefined);
if (!secret)
  throw new Error(
    "NEXTAUTH_SECRET must be set (or .data/nextauth-secret exist, as npm start writes it): the demo secrets are derived from it.",
  );
const BASE = `http://localhost:${Number(process.env.PORT ?? 3000)}`;
const TOKEN = demoSecret(secret, "st", "demo-traffic");
const key = (tenant: string, name: string) => demoSecret(secret, "sk", `${tenant}/${name}`);

interface Client {
  apiKey: string;
  /** checks per second in calm times */
  rate: number;
  routes: string[];
  subjects: number;
}

const CLIENTS: Client[] = [
  {
    apiKey: key("acme", "backend"),
    rate: 30,
    routes: ["GET /v1/items/42", "POST /v1/search", "GET /v1/reports/daily", "GET /v1/items/7"],
    subjects: 20,
  },
  {
    apiKey: key("acme", "mobile"),
    rate: 12,
    routes: ["GET /v1/items/9", "POST /v1/exports/csv", "POST /v1/search"],
    subjects: 60,
  },
  {
    apiKey: key("globex", "ingest"),
    rate: 40,
    routes: ["GET /v1/items/1", "PUT /v1/admin/users", "POST /v1/search"],
    subjects: 10,
  },
  { apiKey: key("globex", "batch"), rate: 8, routes: ["GET /v1/items/3", "POST /v1/search"], subjects: 5 },
  { apiKey: key("initech", "legacy"), rate: 2, routes: ["GET /v1/items/1"], subjects: 3 },
];
if (DEMO_KEYS.length !== CLIENTS.length) console.warn("demo keys changed: update scripts/demo-traffic.ts");

const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)] as T;
const tally = { allowed: 0, rejected: 0, errors: 0 };

async function check(client: Client): Promise<void> {
  // a few noisy subjects send most requests: they become the top offenders
  const subject =
    Math.random() < 0.5
      ? `203.0.113.${1 + Math.floor(Math.random() * 3)}`
      : `198.51.100.${Math.floor(Math.random() * client.subjects)}`;
  try {
    const response = await fetch(`${BASE}/api/check`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ apiKey: client.apiKey, route: pick(client.routes), subject }),
    });
    const body = (await response.json()) as { allowed?: boolean };
    if (!response.ok) tally.errors++;
    else if (body.allowed) tally.allowed++;
    else tally.rejected++;
  } catch {
    tally.errors++;
  }
}

async function main(): Promise<void> {
  console.log(`[demo-traffic] ${SECONDS} s of traffic to ${BASE}/api/check`);
  const end = Date.now() + SECONDS * 1_000;
  for (let tick = 0; Date.now() < end; tick++) {
    const started = Date.now();
    // every ~15 s one client bursts at 8x for 3 s: rejections show up on the charts
    const bursting =
      Math.floor(tick / 10) % 5 === 0 && tick % 10 < 3
        ? CLIENTS[Math.floor(tick / 50) % CLIENTS.length]
        : null;
    const work: Promise<void>[] = [];
    for (const client of CLIENTS) {
      const perTick = ((client === bursting ? 8 : 1) * client.rate * (0.6 + Math.random() * 0.8)) / 4;
      for (let i = 0; i < Math.round(perTick); i++) work.push(check(client));
    }
    await Promise.all(work);
    if (tick % 20 === 19)
      console.log(
        `[demo-traffic] allowed ${tally.allowed}, rejected ${tally.rejected}, errors ${tally.errors}`,
      );
    await new Promise((r) => setTimeout(r, Math.max(0, 250 - (Date.now() - started))));
  }
  console.log(
    `[demo-traffic] done: allowed ${tally.allowed}, rejected ${tally.rejected}, errors ${tally.errors}`,
  );
}

await main();
