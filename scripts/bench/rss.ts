// Resident memory of a server under test, from /proc: the process itself (the front, which
// answers checks and holds their caches) and its children (the app process with Next.js).
import { readFileSync } from "node:fs";

function rssOf(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

function childrenOf(pid: number): number[] {
  try {
    const text = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
    return text === "" ? [] : text.split(" ").map(Number);
  } catch {
    return [];
  }
}

export interface Rss {
  /** bytes of the process itself */
  own: number;
  /** bytes of it and its children */
  total: number;
}

export function rss(pid: number | undefined): Rss {
  if (pid === undefined) return { own: Number.NaN, total: Number.NaN };
  const own = rssOf(pid);
  return { own, total: childrenOf(pid).reduce((sum, child) => sum + rssOf(child), own) };
}

export const mb = (bytes: number): string =>
  Number.isFinite(bytes) ? `${Math.round(bytes / 2 ** 20)} MB` : "?";
