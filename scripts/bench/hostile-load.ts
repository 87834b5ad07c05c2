// The hostile admin load of bench phase (h), in its own process (see hostile.ts): a
// viewer's token sends a million nested "[" as YAML over and over, and an operator imports
// a 5,000-route tenant again and again, every import changing every route. On SIGTERM it
// waits for what is in flight and prints what was sent and how it was answered.
const [appUrl, viewer, operator] = process.argv.slice(2) as [string, string, string];
const BIG_TENANT = "bench-big";
const HOSTILE = "[".repeat(1_000_000);

function bigImport(generation: number): string {
  const routes = Array.from(
    { length: 5000 },
    (_, i) =>
      `      - pattern: GET /g${generation}/r${i}/:id\n` +
      `        limits: [{ name: r${i}, by: key, algorithm: gcra, limit: 10, window: 1s }]\n`,
  ).join("");
  return `tenants:\n  - slug: ${BIG_TENANT}\n    plan: bench\n    routes:\n${routes}`;
}

async function put(token: string, body: string): Promise<number> {
  const response = await fetch(`${appUrl}/api/admin/config`, {
    method: "PUT",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/yaml" },
    body,
  }).catch(() => null);
  await response?.arrayBuffer();
  return response?.status ?? 0;
}

let running = true;
const statuses = new Map<string, number>();
const count = (what: string, status: number): void => {
  const key = `${what} ${status}`;
  statuses.set(key, (statuses.get(key) ?? 0) + 1);
};
const importMs: number[] = [];
// distinct per run of this process, so each import changes every route
let generation = Date.now() % 100_000;

const hostile = (async () => {
  while (running) count("hostile", await put(viewer, HOSTILE));
})();
const imports = (async () => {
  while (running) {
    const started = performance.now();
    count("import", await put(operator, bigImport(++generation)));
    importMs.push(performance.now() - started);
  }
})();

process.on("SIGTERM", () => {
  running = false;
  void Promise.all([hostile, imports]).then(() => {
    const average = importMs.reduce((sum, ms) => sum + ms, 0) / Math.max(1, importMs.length);
    const sent = [...statuses].map(([key, n]) => `${key} x${n}`).join(", ");
    console.log(`${sent}; import ${(average / 1000).toFixed(1)} s avg`);
    process.exit(0);
  });
});
