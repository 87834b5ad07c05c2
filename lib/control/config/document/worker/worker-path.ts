import "server-only";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

// The built worker entry, found above this module (the bundled server or Next's chunks under
// .next/) or from the working directory, whichever holds it.
const ENTRY = join(".next", "sluice", "document-worker.mjs");

let found: string | null = null;

export function documentWorkerPath(): string {
  if (found) return found;
  const starts = [process.cwd()];
  try {
    starts.unshift(dirname(fileURLToPath(import.meta.url)));
  } catch {
    // a bundle without a file URL: the working directory alone
  }
  for (const start of starts) {
    for (let dir = start; ; dir = dirname(dir)) {
      if (existsSync(join(dir, ENTRY))) return (found = join(dir, ENTRY));
      if (dirname(dir) === dir) break;
    }
  }
  throw new Error(`no ${ENTRY} above ${starts.join(" or ")}: build the app (scripts/build-server.mjs)`);
}
