// Turns at the document workers: two run, a bounded queue waits in order, and a document
// past the queue is refused at once (DocumentsBusy) instead of waiting without end.
import { describe, expect, it } from "vitest";
import { DocumentsBusy, workerSlots } from "@/lib/control/config/document/worker/worker-slots";
import { ImportInProgress } from "@/lib/control/config/document/worker/one-at-a-time";

describe("document worker slots", () => {
  it("runs two, queues up to the cap in order, and refuses the next at once", async () => {
    const slots = workerSlots(2, 3);
    const first = await slots.acquire();
    const second = await slots.acquire();
    const order: number[] = [];
    const queued = [1, 2, 3].map((n) =>
      slots.acquire().then((release) => {
        order.push(n);
        return release;
      }),
    );
    expect(slots.load).toEqual({ running: 2, waiting: 3 });
    const refused = slots.acquire();
    await expect(refused).rejects.toBeInstanceOf(DocumentsBusy);
    await expect(refused).rejects.toBeInstanceOf(ImportInProgress);
    await expect(refused).rejects.toThrow(/Too many documents are being checked/);
    expect(slots.load).toEqual({ running: 2, waiting: 3 });

    first();
    first(); // a second call of one release frees nothing more
    const third = await queued[0];
    expect(slots.load).toEqual({ running: 2, waiting: 2 });
    second();
    third?.();
    await Promise.all(queued.slice(1));
    expect(order).toEqual([1, 2, 3]);
    expect(slots.load).toEqual({ running: 2, waiting: 0 });
    for (const release of await Promise.all(queued.slice(1))) release();
    expect(slots.load).toEqual({ running: 0, waiting: 0 });
    // with the queue drained a turn is given at once again
    (await slots.acquire())();
  });
});
