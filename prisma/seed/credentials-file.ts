import { chmodSync, renameSync, writeFileSync } from "node:fs";

// The demo credentials of `npm start` (.data/credentials.txt): readable and writable by the
// owner only (mode 600, also when the file already existed with another mode), written
// whole or not at all (a temporary file renamed over it).
export function writeCredentials(path: string, lines: readonly string[]): void {
  const text =
    "# Sluice demo credentials, written by npm start (prisma/seed.ts). Keep this file private.\n" +
    `${lines.join("\n")}\n`;
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, path);
}
