// The production entry, two processes on one port. This one, the front, owns the port and
// answers checks: each connection is read first by the lean front
// (lib/check/http/front), which frames and answers POST /api/check, /api/check/batch and
// the release and adjust calls that follow a check, on the raw socket; at a connection's first other request (the dashboard, the admin API,
// health, anything unusual) the socket goes, with the bytes already read, to the app
// process (server-app.ts: Next.js), which keeps it. Nothing the app does (a render, an
// import, a parse, a usage rollup) runs on this process's event loop, so none of it can
// hold up a check. Checks and metrics requests that reach the app on a connection it holds
// come back here over a private socket (lib/server/forward.ts).
//
// SLUICE_WORKERS=N (N > 1): this process becomes a node:cluster primary with N check fronts
// as workers on the one port, and still the one app process (lib/server/cluster-primary.ts).
// SIGTERM stops everything gracefully within 5 s (lib/server/shutdown.ts).
import cluster from "node:cluster";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getHeapStatistics } from "node:v8";
import { fileURLToPath } from "node:url";
import type { Socket } from "node:net";
import { env, workerCount } from "@/lib/shared/env";
import { AppProcess, takeUnread } from "@/lib/server/app-process";
import { startWorkers } from "@/lib/server/cluster-primary";
import { startFront } from "@/lib/server/front";
import { onShutdown } from "@/lib/server/shutdown";
import { closeDatabase } from "@/lib/control/data/close";
import { configBackstop } from "@/lib/control/data/config-backstop";
import { AppGone } from "@/lib/server/cluster-primary";

const settings = env();
const workers = workerCount(settings.SLUICE_WORKERS);
// The front's heap cap comes from its command line (npm start passes SLUICE_FRONT_HEAP_MB):
// without it V8 lets a busy front's heap grow to about four times what its caches hold.
const heapLimitMb = getHeapStatistics().heap_size_limit / 2 ** 20;
if (!cluster.isWorker && heapLimitMb > settings.SLUICE_FRONT_HEAP_MB * 1.5 + 64)
  console.warn(
    `[sluice] the front's heap may grow to ${Math.round(heapLimitMb)} MB: start it with node --max-old-space-size=${settings.SLUICE_FRONT_HEAP_MB} (npm start does)`,
  );
const appScript = fileURLToPath(new URL("./server-app.mjs", import.meta.url));

/** A worker passes a connection it does not answer to the primary, which owns the app process. */
function toPrimary(socket: Socket, unread: Buffer | null): void {
  process.send?.(
    { kind: "connection", unread: takeUnread(socket, unread) },
    socket,
    { keepOpen: false },
    (error) => {
      if (error) socket.destroy();
    },
  );
}

if (cluster.isWorker && settings.SLUICE_WORKER_SOCKET) {
  const front = await startFront({
    internalSocket: settings.SLUICE_WORKER_SOCKET,
    handOff: toPrimary,
    announce: false,
    backstop: configBackstop,
  });
  // the primary says when the app process (which passes checks back here) has exited
  const appGone = new Promise<void>((resolve) =>
    process.on("message", (message: unknown) => {
      if (AppGone.safeParse(message).success) resolve();
    }),
  );
  onShutdown(() => front.stop(appGone).then(closeDatabase));
  // the primary is gone: stop as on SIGTERM
  process.on("disconnect", () => process.kill(process.pid, "SIGTERM"));
} else {
  // Private sockets between the processes, in a directory only this user can enter.
  const privateDir = mkdtempSync(join(tmpdir(), "sluice-"));
  const appSocket = join(privateDir, "app.sock");
  const frontSockets = Array.from({ length: workers }, (_, i) => join(privateDir, `front-${i}.sock`));
  const app = new AppProcess(appScript, [frontSockets.join(","), appSocket], settings.SLUICE_APP_HEAP_MB);
  await app.whenReady();
  if (workers === 1) {
    const front = await startFront({
      internalSocket: frontSockets[0] as string,
      handOff: (socket, unread) => app.handOff(socket, unread),
      announce: true,
      backstop: configBackstop,
    });
    onShutdown(async () => {
      const appGone = app.stop();
      await Promise.allSettled([front.stop(appGone).then(closeDatabase), appGone]);
      rmSync(privateDir, { recursive: true, force: true });
    });
  } else {
    const pool = startWorkers(frontSockets, app);
    onShutdown(async () => {
      const appGone = app.stop();
      await Promise.allSettled([pool.stop(appGone), appGone]);
      rmSync(privateDir, { recursive: true, force: true });
    });
    await pool.listening;
    console.log(
      `[sluice] listening on http://localhost:${settings.PORT} (${settings.NODE_ENV}, ${workers} check workers)`,
    );
    if (settings.SLUICE_GRPC_PORT !== undefined)
      console.log(`[sluice] gRPC ShouldRateLimit on port ${settings.SLUICE_GRPC_PORT} (each check worker)`);
  }
}
