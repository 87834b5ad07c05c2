// Flags shared by every command: where Sluice is and who we are. Flags win over the
// environment (SLUICE_URL, SLUICE_TOKEN) so one shell can address two installations.
import { CliError } from "./errors";

export interface Connection {
  url: string;
  token: string;
  timeoutMs: number;
}

export interface GlobalFlags {
  url?: string;
  token?: string;
  timeout?: string;
}

export const GLOBAL_OPTIONS = {
  url: { type: "string" },
  token: { type: "string" },
  timeout: { type: "string" },
  json: { type: "boolean", default: false },
  help: { type: "boolean", short: "h", default: false },
} as const;

const DEFAULT_TIMEOUT_MS = 30_000;

export function connectionFrom(flags: GlobalFlags, env: NodeJS.ProcessEnv): Connection {
  const url = flags.url ?? env.SLUICE_URL;
  const token = flags.token ?? env.SLUICE_TOKEN;
  if (!url)
    throw new CliError("No Sluice address: give --url or set SLUICE_URL (e.g. https://sluice.example.com).");
  if (!token) throw new CliError("No token: give --token or set SLUICE_TOKEN (an admin or service token).");
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CliError(`--url / SLUICE_URL: "${url}" is not a URL (e.g. https://sluice.example.com).`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    throw new CliError(`--url / SLUICE_URL: must be an http or https URL, not ${parsed.protocol}`);
  const timeoutMs = flags.timeout === undefined ? DEFAULT_TIMEOUT_MS : Number(flags.timeout);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 600_000)
    throw new CliError("--timeout: must be a whole number of milliseconds, 1..600000.");
  return { url: parsed.href.replace(/\/+$/, ""), token, timeoutMs };
}
