// The flood of bench phase (n), in its own process (see noisy.ts): 4 loops, each sending a
// batch of 1,000 checks of one tenant (1,000 subjects, so the limiter works on each) and
// the next as soon as it is answered. On SIGTERM it waits for what is in flight and prints
// the answers by status and the checks per second the front accepted.
const [appUrl, token, tenant, route] = process.argv.slice(2) as [string, string, string, string];
const LOOPS = 4;
const BATCH = 1_000;

const body = JSON.stringify({
  checks: Array.from({ length: BATCH }, (_, i) => ({ tenant, route, subject: `s${i}` })),
});

let running = true;
const statuses = new Map<number, number>();
let accepted = 0;
const started = performance.now();

async function loop(): Promise<void> {
  while (running) {
    const response = await fetch(`${appUrl}/api/check/batch`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body,
    }).catch(() => null);
    await response?.arrayBuffer();
    const status = response?.status ?? 0;
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    if (status === 200) accepted += BATCH;
    // a hostile flood: a 429 does not slow it down
  }
}

const loops = Array.from({ length: LOOPS }, () => loop());

process.on("SIGTERM", () => {
  running = false;
  void Promise.all(loops).then(() => {
    const seconds = (performance.now() - started) / 1000;
    const sent = [...statuses].map(([status, n]) => `${status} x${n}`).join(", ");
    console.log(`flood: batches ${sent}; ${Math.round(accepted / seconds)} checks/s accepted`);
    process.exit(0);
  });
});
export {};
