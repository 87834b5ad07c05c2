import "server-only";
import type { Script } from "@/lib/shared/redis/script-client";

// Commands as RESP text, encoded straight into one string each (lean-redis.ts): no Command
// objects, no argument flattening, no Buffers on the check path.

const arg = (value: string): string => `$${Buffer.byteLength(value)}\r\n${value}\r\n`;

export const PING = "*1\r\n$4\r\nPING\r\n";

export function command(parts: readonly string[]): string {
  let text = `*${parts.length}\r\n`;
  for (const part of parts) text += arg(part);
  return text;
}

/** EVALSHA (or EVAL after NOSCRIPT) of a script, every key behind the client's prefix. */
export function scriptCommand(
  verb: "EVALSHA" | "EVAL",
  body: string,
  keys: readonly string[],
  args: readonly (string | number)[],
  prefix: string,
): string {
  let text = `*${3 + keys.length + args.length}\r\n${arg(verb)}${arg(body)}${arg(String(keys.length))}`;
  for (const key of keys) text += arg(prefix + key);
  for (const value of args) text += arg(typeof value === "string" ? value : String(value));
  return text;
}

export interface SetupOptions {
  clientName?: string;
  /** behind Redis Sentinel: ROLE, to refuse a server that is not the master */
  checkRole: boolean;
  scripts?: readonly Script[];
}

/** What a new connection sends before it is ready: AUTH, SELECT, CLIENT SETNAME, ROLE, SCRIPT LOAD (when asked). */
export function setupCommands(target: URL, options: SetupOptions): string[] {
  const { username, password, pathname } = target;
  const setup: string[] = [];
  if (password)
    setup.push(
      command(
        username
          ? ["AUTH", decodeURIComponent(username), decodeURIComponent(password)]
          : ["AUTH", decodeURIComponent(password)],
      ),
    );
  const db = Number(pathname.slice(1) || 0);
  if (db > 0) setup.push(command(["SELECT", String(db)]));
  if (options.clientName) setup.push(command(["CLIENT", "SETNAME", options.clientName]));
  if (options.checkRole) setup.push(command(["ROLE"]));
  for (const script of options.scripts ?? []) setup.push(command(["SCRIPT", "LOAD", script.lua]));
  return setup;
}
