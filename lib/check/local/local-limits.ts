import "server-only";
import { degradedAnswer } from "@/lib/check/check-shapes";
import type { CheckShape } from "@/lib/check/shape-types";
import { checkParts, keyJsonOf } from "@/lib/check/check-parts";
import type { KeyRecord } from "@/lib/check/config-index";
import type { LimiterStore, StoreResult } from "@/lib/check/limiter-store";
import type { RenderedDecision } from "@/lib/check/render/rendered";
import type { CheckInput } from "@/lib/check/types";
import { CounterStore } from "@/lib/check/local/counter-store";
import { planLocal, shapeLocal, type LocalShape } from "@/lib/check/local/local-plan";
import { SyncCycle } from "@/lib/check/local/sync-cycle";
import type { Look } from "@/lib/check/limiter/local/local-algorithms";
import type { LocalCounter } from "@/lib/check/limiter/local/local-counter";
import type { ScriptClient } from "@/lib/shared/redis/script-client";

// Checks with local limits (consistency: local), the check pipeline's one detour
// (check-service.ts). Local limits decide on this server's counters, with no Redis call;
// the exact limits of the same check still go to Redis in the one script call, asked to
// store nothing (dryRun) when a local limit already denies, so all-or-nothing holds: local
// limits count only when the whole check is admitted (shadow ones on their own verdict,
// as in Redis). The answer is rendered by the check's template from the same integers the
// script answers (lua/check.lua's reply), so it reads exactly as an exact check's.

export interface LocalLimitsOptions {
  /** most counters (limit x identity) kept in memory */
  capacity: number;
  /** a sync call that has not answered by then is failed (its increments kept) */
  syncTimeoutMs: number;
}

type Done = (rendered: RenderedDecision) => void;

const newLook = (): Look => ({ status: 0, retry: -1, rem0: 0, reset0: 0, rem1: 0, reset1: 0 });

/** A limit's six reply integers: status, consumed, remaining, resetMs, retryAfterMs, waitMs. */
function fill(reply: number[], index: number, look: Look, consumed: boolean): void {
  const base = 2 + 6 * index;
  reply[base] = look.status;
  reply[base + 1] = consumed ? 1 : 0;
  reply[base + 2] = consumed ? look.rem1 : look.rem0;
  reply[base + 3] = consumed ? look.reset1 : look.reset0;
  reply[base + 4] = look.retry;
  reply[base + 5] = 0;
}

export class LocalLimits {
  readonly counters: CounterStore;
  readonly cycle: SyncCycle;
  private readonly shapes = new WeakMap<CheckShape, LocalShape>();

  constructor(
    private readonly store: LimiterStore,
    clients: readonly ScriptClient[],
    options: LocalLimitsOptions,
  ) {
    this.counters = new CounterStore(options.capacity);
    this.cycle = new SyncCycle(this.counters, clients, options.syncTimeoutMs);
  }

  decide(
    check: { shape: CheckShape; key: KeyRecord | null },
    input: CheckInput,
    configVersion: number,
    done: Done,
    timeoutMs?: number,
  ): void {
    const { shape, key } = check;
    const parts = checkParts(shape, key, input.subject);
    let local = this.shapes.get(shape);
    if (local === undefined || local.rules !== shape.rules)
      this.shapes.set(shape, (local = shapeLocal(shape)));
    const plan = planLocal(local, parts);
    const { slots } = plan;
    const now = this.cycle.now();
    const cost = input.cost;
    const counters: LocalCounter[] = [];
    const looks: Look[] = [];
    let localAdmits = true;
    for (const slot of slots) {
      const counter = this.counters.use(slot.key, slot.tenantId, slot.rule, slot.syncEveryMs);
      const look = newLook();
      counter.look(cost, now, look);
      if (look.status !== 1 && !slot.shadow) localAdmits = false;
      counters.push(counter);
      looks.push(look);
    }
    this.cycle.ensureRunning();
    const reply = new Array<number>(2 + 6 * (slots.length + plan.exactIndex.length)).fill(0);
    const settle = (allowed: boolean): RenderedDecision => {
      slots.forEach((slot, i) => {
        const look = looks[i] as Look;
        const consumed = look.status === 1 && (allowed || slot.shadow);
        if (consumed && !input.dryRun) (counters[i] as LocalCounter).consume(cost, now);
        fill(reply, slot.index, look, consumed);
      });
      reply[0] = allowed ? 1 : 0;
      reply[1] = now;
      return shape.template.render(reply, 0, keyJsonOf(key), 0, null, configVersion);
    };
    if (plan.exactIndex.length === 0) {
      done(settle(localAdmits));
      return;
    }
    const exact = plan;
    this.store.check(
      {
        check: { limits: exact.exactSpecs, request: { cost, dryRun: input.dryRun || !localAdmits } },
        keys: exact.exactKeys,
        rules: exact.exactRules,
      },
      (result: StoreResult) => {
        if (!result.ok) {
          done(degradedAnswer(shape, key, configVersion, result.cause));
          return;
        }
        const { reply: ints, at } = result;
        exact.exactIndex.forEach((index, j) => {
          for (let k = 0; k < 6; k++) reply[2 + 6 * index + k] = ints[at + 2 + 6 * j + k] as number;
        });
        let rendered: RenderedDecision;
        try {
          rendered = settle(localAdmits && ints[at] === 1);
        } catch (error) {
          console.error("[sluice] unreadable limiter reply:", error);
          rendered = degradedAnswer(shape, key, configVersion, "limiter_error");
        }
        done(rendered);
      },
      timeoutMs,
    );
  }

  /** Counters cleared elsewhere (an admin reset): local views start again from Redis. */
  clear(): void {
    this.counters.clear();
  }

  stop(): void {
    this.cycle.stop();
  }
}
