import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

// The Next.js fixture (tests/fixtures/next-app): `next build` only when its sources or the
// client's changed since the last build (a hash stamp, as scripts/build-if-changed.sh does
// for the main app), then `next start` on SLUICE_TEST_APP_PORT + 5, pointed at the running
// Sluice. Its output stays in the fixture's own .next, apart from the main app's build.

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const APP_DIR = join(ROOT, "tests/fixtures/next-app");
const STAMP = join(APP_DIR, ".next/.sluice-fixture-hash");
const NEXT_BIN = join(ROOT, "node_modules/next/dist/bin/next");

export const NEXT_APP_PORT = Number(process.env.SLUICE_TEST_APP_PORT ?? 3100) + 5;
export const NEXT_APP_URL = `http://127.0.0.1:${NEXT_APP_PORT}`;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === ".next" || entry.name === "node_modules" || entry.name === "next-env.d.ts") return [];
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sources(path) : [path];
  });
}

function sourceHash(): string {
  const files = [
    ...sources(APP_DIR),
    ...sources(join(ROOT, "packages/client/src")),
    join(ROOT, "package-lock.json"),
  ].sort();
  const hash = createHash("sha256");
  for (const file of files) hash.update(relative(ROOT, file)).update(readFileSync(file));
  return hash.digest("hex");
}

function run(args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, [NEXT_BIN, ...args], {
    cwd: APP_DIR,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

async function buildIfChanged(): Promise<void> {
  const hash = sourceHash();
  const built = existsSync(STAMP) && readFileSync(STAMP, "utf8") === hash;
  if (built && existsSync(join(APP_DIR, ".next/BUILD_ID"))) return;
  const build = run(["build"], { NODE_ENV: "production" });
  let log = "";
  build.stdout?.on("data", (chunk: Buffer) => (log += chunk.toString()));
  build.stderr?.on("data", (chunk: Buffer) => (log += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => build.on("exit", resolve));
  if (code !== 0) throw new Error(`next build of the fixture failed:\n${log.slice(-3_000)}`);
  writeFileSync(STAMP, hash);
}

export interface NextApp {
  url: string;
  stop: () => Promise<void>;
}

/** Builds if needed and starts the fixture; `stop` ends the process it started. */
export async function startNextApp(env: {
  sluiceUrl: string;
  token: string;
  downUrl: string;
}): Promise<NextApp> {
  await buildIfChanged();
  const server = run(["start", "-H", "127.0.0.1", "-p", String(NEXT_APP_PORT)], {
    NODE_ENV: "production",
    SLUICE_URL: env.sluiceUrl,
    SLUICE_TOKEN: env.token,
    SLUICE_DOWN_URL: env.downUrl,
  });
  let log = "";
  server.stdout?.on("data", (chunk: Buffer) => (log += chunk.toString()));
  server.stderr?.on("data", (chunk: Buffer) => (log += chunk.toString()));
  const stop = async (): Promise<void> => {
    if (server.exitCode !== null) return;
    const exited = new Promise((resolve) => server.once("exit", resolve));
    server.kill("SIGTERM");
    await exited;
  };
  for (let i = 0; i < 300; i++) {
    if (server.exitCode !== null) throw new Error(`next start exited:\n${log.slice(-3_000)}`);
    const up = await fetch(`${NEXT_APP_URL}/answers/none/users/0`).then(
      (response) => response.status === 404,
      () => false,
    );
    if (up) return { url: NEXT_APP_URL, stop };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stop();
  throw new Error(`the Next.js fixture did not answer on ${NEXT_APP_URL}:\n${log.slice(-3_000)}`);
}
