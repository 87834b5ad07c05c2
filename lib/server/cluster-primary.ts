import "server-only";
import cluster, { type Worker } from "node:cluster";
import { Socket } from "node:net";
import { z } from "zod";
import type { AppProcess } from "@/lib/server/app-process";
import { WORKER_KILL_MS } from "@/lib/server/shutdown";

// SLUICE_WORKERS > 1: this process (the primary) answers nothing itself. node:cluster shares
// the port among N check fronts (server.ts as a worker: lib/server/front.ts), each with its
// own config holder and usage recorder, as separate servers have; the one app process is
// the primary's child. A worker passes the connections it does not answer here (with the
// bytes it read), and they go on to the app process. A worker that dies is started again.

const HandOff = z.object({ kind: z.literal("connection"), unread: z.instanceof(Uint8Array).nullable() });
/** To the workers, shutting down: the app process has exited and passes no more checks back. */
export const AppGone = z.object({ kind: z.literal("app-gone") });

const RESTART_MS = 1_000;

export interface WorkerPool {
  /** Resolves once every worker listens. */
  listening: Promise<void>;
  /**
   * SIGTERM to each worker (each stops gracefully), SIGKILL past the grace period; each is
   * told when `appGone` resolves (until then it answers the checks the app passes back).
   */
  stop(appGone: Promise<void>): Promise<void>;
}

/** `sockets[i]`: worker i's private socket, where the app process passes checks back. */
export function startWorkers(sockets: readonly string[], app: AppProcess): WorkerPool {
  cluster.setupPrimary({ serialization: "advanced" });
  const workers = new Map<Worker, number>();
  let stopping = false;
  let waiting = sockets.length;
  let ready: () => void = () => undefined;
  const listening = new Promise<void>((resolve) => (ready = resolve));

  const fork = (index: number): void => {
    const worker = cluster.fork({ SLUICE_WORKER_SOCKET: sockets[index] });
    workers.set(worker, index);
    worker.once("listening", () => {
      waiting -= 1;
      if (waiting === 0) ready();
    });
  };

  cluster.on("message", (_worker: Worker, message: unknown, handle: unknown) => {
    const parsed = HandOff.safeParse(message);
    if (!parsed.success || !(handle instanceof Socket)) return;
    const unread = parsed.data.unread;
    app.handOff(
      handle,
      unread === null ? null : Buffer.from(unread.buffer, unread.byteOffset, unread.byteLength),
    );
  });
  cluster.on("exit", (worker: Worker, code: number | null, signal: string | null) => {
    const index = workers.get(worker);
    workers.delete(worker);
    if (stopping || index === undefined) return;
    console.error(`[sluice] check worker ${index} exited (${signal ?? code}); restarting`);
    setTimeout(() => fork(index), RESTART_MS);
  });
  sockets.forEach((_socket, index) => fork(index));

  return {
    listening,
    async stop(appGone) {
      stopping = true;
      void appGone.then(() => {
        const gone: z.infer<typeof AppGone> = { kind: "app-gone" };
        for (const worker of workers.keys()) if (worker.isConnected()) worker.send(gone);
      });
      await Promise.all(
        [...workers.keys()].map(
          (worker) =>
            new Promise<void>((resolve) => {
              if (worker.isDead()) return resolve();
              const kill = setTimeout(() => worker.process.kill("SIGKILL"), WORKER_KILL_MS);
              worker.once("exit", () => {
                clearTimeout(kill);
                resolve();
              });
              worker.process.kill("SIGTERM");
            }),
        ),
      );
    },
  };
}
