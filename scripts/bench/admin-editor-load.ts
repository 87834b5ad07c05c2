// The hostile editor of bench phase (ah), in its own process (see admin-fairness.ts): an
// editor's admin token of one tenant loops three documents that stay within the body and
// value bounds, each as a preview (?dryRun=true) and as an import, all six loops at once,
// a 409 (its own import already running) or any other refusal only followed by the next
// send. On SIGTERM it waits for what is in flight and prints the answers by status.
const [appUrl, token, tenant] = process.argv.slice(2) as [string, string, string];

// 28,000 strings of 66 characters in one limit field: a 1.96 MB flow list
const pad = (i: number): string => `s${String(i).padStart(6, "0")}`.padEnd(66, "x");
const flowList =
  `tenants:\n  - slug: ${tenant}\n    plan: bench\n    limits:\n      - { name: [` +
  Array.from({ length: 28_000 }, (_, i) => `"${pad(i)}"`).join(", ") +
  `], by: key, algorithm: gcra, limit: 10, window: 1s }\n`;
// 60,000 unknown fields of the editor's tenant
const manyKeys =
  `tenants:\n  - slug: ${tenant}\n    plan: bench\n` +
  Array.from({ length: 60_000 }, (_, i) => `    k${i}: 1`).join("\n") +
  "\n";
// 1,040,001 numbers, 2 MB of JSON
const numbers = "[" + Array.from({ length: 1_040_001 }, (_, i) => String(i % 10)).join(",") + "]";

const documents = [
  { what: "flow-list", body: flowList, type: "application/yaml" },
  { what: "60k-keys", body: manyKeys, type: "application/yaml" },
  { what: "json-numbers", body: numbers, type: "application/json" },
];

let running = true;
const statuses = new Map<string, number>();
const count = (what: string, status: number): void => {
  const key = `${what} ${status}`;
  statuses.set(key, (statuses.get(key) ?? 0) + 1);
};

async function loop(body: string, type: string, what: string, dryRun: boolean): Promise<void> {
  const url = `${appUrl}/api/admin/config${dryRun ? "?dryRun=true" : ""}`;
  while (running) {
    const response = await fetch(url, {
      method: "PUT",
      headers: { authorization: `Bearer ${token}`, "content-type": type },
      body,
    }).catch(() => null);
    await response?.arrayBuffer().catch(() => undefined);
    count(what, response?.status ?? 0);
  }
}

// the parent waits for this before it measures
console.log("sending");
const loops = documents.flatMap(({ body, type, what }) => [
  loop(body, type, what, true),
  loop(body, type, what, false),
]);

process.on("SIGTERM", () => {
  running = false;
  void Promise.all(loops).then(() => {
    console.log(`editor: ${[...statuses].map(([key, n]) => `${key} x${n}`).join(", ")}`);
    process.exit(0);
  });
});
export {};
