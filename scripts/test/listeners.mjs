// The servers of a test run, so that none listens beyond loopback or outlives the run: which
// listening TCP sockets are this checkout's (their process works in the checkout or its .data
// folder: redis-server and PostgreSQL work in their data folder, the apps in the checkout),
// whether any listens beyond loopback, and whether any started during the run is still
// listening after it.
//   listeners.mjs list                    ours now, one per line
//   listeners.mjs snapshot <file>         ours now, as JSON (before the run)
//   listeners.mjs watch <file>            every 0.5 s until stopped: ours beyond loopback, appended to <file>
//   listeners.mjs check-during <file>     exit 1 when <file> names any (prints them)
//   listeners.mjs check-after <snapshot>  exit 1 when one not in <snapshot> still listens
import { execFileSync } from "node:child_process";
import { appendFileSync, existsSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const DATA = resolve(process.env.SLUICE_DATA_DIR ?? join(ROOT, ".data"));

/** "127.0.0.1:6379", "[::1]:6379", "[::ffff:127.0.0.1]:80", "*:80", "0.0.0.0:80", "[::]:80" */
export function isLoopback(local) {
  const host = local
    .slice(0, local.lastIndexOf(":"))
    .replace(/^\[|\]$/g, "")
    .replace(/%.*$/, "");
  return /^127\./.test(host) || host === "::1" || /^::ffff:127\./i.test(host);
}

/** One line of `ss -ltnpH` -> its local address and the pids holding it. */
export function parseSsLine(line) {
  const fields = line.trim().split(/\s+/);
  if (fields.length < 5) return null;
  const pids = [...line.matchAll(/pid=(\d+)/g)].map((m) => Number(m[1]));
  return { local: fields[3], pids };
}

function workDir(pid) {
  try {
    return readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return null;
  }
}

const inside = (path, dir) => path === dir || path.startsWith(`${dir}/`);

/** This checkout's listening sockets: { pid, local, cwd }. */
export function ourListeners(roots = [ROOT, DATA]) {
  const text = execFileSync("ss", ["-ltnpH"], { encoding: "utf8" });
  const out = [];
  for (const line of text.split("\n")) {
    const parsed = parseSsLine(line);
    if (!parsed) continue;
    for (const pid of parsed.pids) {
      const cwd = workDir(pid);
      if (cwd !== null && roots.some((root) => inside(cwd, root)))
        out.push({ pid, local: parsed.local, cwd });
    }
  }
  return out;
}

const show = (l) => `${l.local} (pid ${l.pid}, in ${l.cwd})`;
const sameListener = (a, b) => a.pid === b.pid && a.local === b.local;

function main() {
  const [mode, file] = process.argv.slice(2);
  if (mode === "list") {
    for (const l of ourListeners()) console.log(show(l));
  } else if (mode === "snapshot") {
    writeFileSync(file, JSON.stringify(ourListeners()));
  } else if (mode === "watch") {
    const seen = new Set();
    const sample = () => {
      for (const l of ourListeners()) {
        const key = `${l.pid} ${l.local}`;
        if (isLoopback(l.local) || seen.has(key)) continue;
        seen.add(key);
        appendFileSync(file, `${show(l)}\n`);
      }
    };
    sample();
    setInterval(sample, 500);
    process.on("SIGTERM", () => {
      sample();
      process.exit(0);
    });
  } else if (mode === "check-during") {
    const found = existsSync(file) ? readFileSync(file, "utf8").trim() : "";
    if (found) {
      console.error(`listened beyond loopback during the run:\n${found}`);
      process.exit(1);
    }
    console.log("nothing of this run listened beyond loopback");
  } else if (mode === "check-after") {
    const before = JSON.parse(readFileSync(file, "utf8"));
    const left = ourListeners().filter((l) => !before.some((b) => sameListener(b, l)));
    if (left.length > 0) {
      console.error(`still listening after the run:\n${left.map(show).join("\n")}`);
      process.exit(1);
    }
    console.log("nothing the run started is still listening");
  } else {
    console.error(
      "usage: listeners.mjs list | snapshot <file> | watch <file> | check-during <file> | check-after <snapshot>",
    );
    process.exit(2);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
