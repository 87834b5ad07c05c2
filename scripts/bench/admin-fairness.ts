// Phases (aq) and (ah), the admin plane under a hostile editor: one tenant's admin token
// reads that tenant's API keys (GET /api/admin/tenants/{slug}/keys) at a modest fixed rate,
// alone (aq) and while an editor of another tenant loops documents that stay within the
// body and value bounds (admin-editor-load.ts). The goal: the reader's p99 under 200 ms
// with no failed request while the editor's documents are parsed, checked and refused.
import type { Principal } from "@/lib/shared/principal";
import { createAdminToken } from "@/lib/control/data/tokens";
import { importConfig } from "@/lib/control/data/import-config";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { fixedRateGet } from "./admin-get-load";
import type { App } from "./app-server";
import { cpuMicros } from "./cpu";
import type { Measured, Phase, PhaseSummary } from "./rounds";
import type { Row, Target } from "./report";
import { phaseRow } from "./rows";

const bench: Principal = { kind: "system", label: "bench" };
const PROBED_TENANT = "bench";
const EDITOR_TENANT = "bench-editor";
const RATE = 20;
const CONNECTIONS = 4;
const SECONDS = Number(process.env.BENCH_ADMIN_SECONDS ?? 8);

export interface AdminSetup {
  /** an admin token of the probed tenant */
  reader: string;
  /** an editor token of another tenant */
  editor: string;
}

export async function prepareAdmin(): Promise<AdminSetup> {
  await importConfig(bench, { tenants: [{ slug: EDITOR_TENANT, plan: "bench" }] });
  const reader = await createAdminToken(bench, {
    name: "bench-reader",
    role: "admin",
    tenant: PROBED_TENANT,
  });
  const editor = await createAdminToken(bench, {
    name: "bench-editor",
    role: "editor",
    tenant: EDITOR_TENANT,
  });
  return { reader: reader.token, editor: editor.token };
}

/** The front's CPU and its app process's (its child, which serves the admin API). */
function serverCpu(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(" ").map(Number);
  } catch {
    // no children file: the front alone
  }
  return [pid, ...children.filter((child) => child > 0)].reduce((sum, p) => sum + cpuMicros(p), 0);
}

async function measure(
  app: App,
  token: string,
  log: (text: string) => void,
  name: string,
): Promise<Measured> {
  const url = `${app.url}/api/admin/tenants/${PROBED_TENANT}/keys`;
  log(`${name}: warm-up 1 s, then ${SECONDS} s`);
  await fixedRateGet({ url, token, rate: RATE, seconds: 1, connections: CONNECTIONS });
  const cpu0 = serverCpu(app.pid);
  const result = await fixedRateGet({ url, token, rate: RATE, seconds: SECONDS, connections: CONNECTIONS });
  if (result.failures > 0) log(`${name}: ${result.failures} failed requests`);
  const note = `max ${result.max?.toFixed(0) ?? "?"} ms`;
  return { ...result, serverCpu: serverCpu(app.pid) - cpu0, redisCpu: Number.NaN, note, seconds: SECONDS };
}

/** Starts the editor's loops in their own process; resolves once they are sending. */
async function startEditor(appUrl: string, token: string): Promise<() => Promise<string>> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "scripts/bench/admin-editor-load.ts", appUrl, token, EDITOR_TENANT],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  let output = "";
  let sending: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (sending = resolve));
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString();
    if (output.includes("sending")) sending();
  });
  await started;
  return async () => {
    const exited = once(child, "exit");
    child.kill("SIGTERM");
    await exited;
    return output.replace("sending\n", "").trim();
  };
}

export function adminPhases(app: () => App, setup: AdminSetup, log: (text: string) => void): Phase[] {
  return [
    { id: "aq", run: () => measure(app(), setup.reader, log, "(aq) another tenant's admin GET, quiet") },
    {
      id: "ah",
      run: async () => {
        const stop = await startEditor(app().url, setup.editor);
        const measured = await measure(app(), setup.reader, log, "(ah) the same under a hostile editor");
        return { ...measured, note: `${measured.note}; ${await stop()}` };
      },
    },
  ];
}

export function adminTarget(ah: Measured, quiet: Measured): Target {
  return {
    what: "p99 of (ah) (another tenant's admin GET under a hostile editor) <= 200 ms, 0 errors",
    value: `${ah.p99.toFixed(2)} ms, max ${ah.max?.toFixed(0) ?? "?"} ms (quiet (aq): p50 ${quiet.p50.toFixed(2)} ms, p99 ${quiet.p99.toFixed(2)} ms), ${ah.failures} errors`,
    ok: ah.p99 <= 200 && ah.failures === 0,
  };
}

/** The two rows (server µs: the front and the app process, per GET). */
export function adminRows(get: (id: string) => PhaseSummary): Row[] {
  return [
    phaseRow(get("aq"), "(aq)", `GET /api/admin/tenants/{slug}/keys, ${RATE}/s fixed, ${CONNECTIONS} conn.`),
    phaseRow(
      get("ah"),
      "(ah)",
      "(aq) while another tenant's editor loops 2 MB documents (previews, imports)",
    ),
  ];
}
