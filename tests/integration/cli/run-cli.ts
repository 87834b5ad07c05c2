// Runs the real `sluice` bin as a child process (node + its tsx loader), from a scratch
// folder so nothing depends on the checkout being the working directory.
import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { APP_URL, BOOTSTRAP } from "../admin/http";

export const BIN = fileURLToPath(new URL("../../../packages/client/bin/sluice.mjs", import.meta.url));
export const WORKDIR = mkdtempSync(join(tmpdir(), "sluice-cli-"));

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function sluice(args: string[], env: Record<string, string | undefined> = {}): Promise<CliRun> {
  const fullEnv: NodeJS.ProcessEnv = { ...process.env, SLUICE_URL: APP_URL, SLUICE_TOKEN: BOOTSTRAP, ...env };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete fullEnv[name];
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { cwd: WORKDIR, env: fullEnv, timeout: 30_000 },
      (error, stdout, stderr) => {
        const code = error && typeof error.code === "number" ? error.code : error ? -1 : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
