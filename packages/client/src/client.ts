import { DenyCache, denyKey, type DenyCacheOptions } from "./deny-cache";
import { fallbackDecision, type OnUnavailable } from "./fallback";
import { microBatcher, type MicroBatchOptions } from "./micro-batch";
import { checkHeaderFlavour, rateLimitHeaders, type HeaderFlavour } from "./headers";
import { postJson, type TransportOptions } from "./transport";
import type { AdjustOptions, AdjustResult, CheckRequest, CheckResult, ClientError, Decision } from "./types";

// createClient(): check() and checkBatch() against a Sluice server. A decision is always
// returned, never thrown: when Sluice cannot answer (down, slower than timeoutMs, 5xx, or
// refusing the request), the decision is `onUnavailable`'s, marked degraded, with `error`.

export interface ClientOptions {
  /** Sluice's base URL, e.g. "http://sluice.internal:3000" */
  url: string;
  /** a service token (st_...) */
  token: string;
  /** hard deadline per call in ms, connecting and reading included (default 200) */
  timeoutMs?: number;
  /** when Sluice cannot answer: "open" admits, "closed" denies (default "open") */
  onUnavailable?: OnUnavailable;
  /** retries of a call that never reached Sluice (connection refused), or of dry runs (default 0) */
  retries?: number;
  /** the local deny cache; false turns it off (default on: 10,000 entries, 5 s at most) */
  localDenyCache?: boolean | DenyCacheOptions;
  /**
   * the RateLimit header flavour of results' `headers` (docs/api.md, "Header flavours";
   * default draft-11): the client renders them from the decision, so match the tenant's
   */
  headers?: HeaderFlavour;
  /** told of every failed call (log it: a fallback decision hides it otherwise) */
  onError?: (error: ClientError, check: CheckRequest) => void;
  /** send the checks of one event-loop turn as one batch (default off; see micro-batch.ts) */
  microBatch?: boolean | MicroBatchOptions;
  /** a fetch implementation (default: the global fetch) */
  fetch?: typeof fetch;
}

export interface CallOptions {
  signal?: AbortSignal;
}

export interface SluiceClient {
  check(check: CheckRequest, options?: CallOptions): Promise<CheckResult>;
  checkBatch(checks: readonly CheckRequest[], options?: CallOptions): Promise<CheckResult[]>;
  /**
   * Charge (amount > 0) or refund (amount < 0) a decided check by its `checkId` (checks sent
   * with `adjustable: true`); safe to retry: idempotent per checkId and idempotencyKey.
   */
  adjust(checkId: string, amount: number, options?: AdjustOptions): Promise<AdjustResult>;
  /**
   * Ends the lease a check answered (concurrency limits), once the request it admitted is
   * over. Idempotent: true when this call freed the slot, false when it was released before
   * or had expired, or when Sluice could not be reached (the lease then expires at its
   * timeout). Never throws.
   */
  release(lease: string, options?: CallOptions): Promise<boolean>;
  readonly options: Readonly<Required<Pick<ClientOptions, "url" | "timeoutMs" | "onUnavailable">>>;
}

function isDecision(value: unknown): value is Decision {
  if (typeof value !== "object" || value === null) return false;
  const d = value as Partial<Decision>;
  return typeof d.allowed === "boolean" && typeof d.reason === "string" && Array.isArray(d.limits);
}

export function createClient(options: ClientOptions): SluiceClient {
  const url = options.url.replace(/\/+$/, "");
  const onUnavailable = options.onUnavailable ?? "open";
  const timeoutMs = options.timeoutMs ?? 200;
  if (!/^https?:\/\//.test(url)) throw new Error(`url: must be an http(s) URL, got "${options.url}"`);
  if (!options.token) throw new Error("token: a Sluice service token is required");
  if (!(timeoutMs > 0)) throw new Error("timeoutMs: must be a positive number of ms");
  const transport: TransportOptions = {
    url,
    token: options.token,
    timeoutMs,
    retries: options.retries ?? 0,
    fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
  };
  checkHeaderFlavour(options.headers);
  const flavour = options.headers ?? "draft-11";
  const cacheOptions = options.localDenyCache ?? true;
  const cache = cacheOptions === false ? null : new DenyCache(cacheOptions === true ? {} : cacheOptions);

  const fromSluice = (decision: Decision): CheckResult => ({
    ...decision,
    headers: rateLimitHeaders(decision, flavour),
    source: "sluice",
  });
  const fallback = (check: CheckRequest, error: ClientError): CheckResult => {
    try {
      options.onError?.(error, check);
    } catch {
      // a throwing logger must not turn a decision into an exception
    }
    const decision = fallbackDecision(check, onUnavailable);
    return { ...decision, headers: rateLimitHeaders(decision, flavour), source: "fallback", error };
  };
  const local = (check: CheckRequest): CheckResult | null => {
    if (cache === null || check.dryRun) return null;
    const hit = cache.lookup(denyKey(check), Date.now());
    return hit === null ? null : { ...hit, headers: rateLimitHeaders(hit, flavour), source: "local" };
  };
  const remember = (check: CheckRequest, decision: Decision): void => {
    if (cache !== null && !check.dryRun) cache.remember(denyKey(check), decision, Date.now());
  };

  async function check(request: CheckRequest, call: CallOptions = {}): Promise<CheckResult> {
    const cached = local(request);
    if (cached !== null) return cached;
    if (batched !== null && call.signal === undefined) return batched(request);
    return checkOne(request, call);
  }

  async function checkOne(request: CheckRequest, call: CallOptions = {}): Promise<CheckResult> {
    const answer = await postJson(transport, "/api/check", request, request.dryRun === true, call.signal);
    if (!answer.ok) return fallback(request, answer.error);
    if (!isDecision(answer.body)) {
      return fallback(request, { kind: "invalid_answer", message: "the answer is not a decision" });
    }
    remember(request, answer.body);
    return fromSluice(answer.body);
  }

  async function checkBatch(
    requests: readonly CheckRequest[],
    call: CallOptions = {},
  ): Promise<CheckResult[]> {
    const results: Array<CheckResult | null> = requests.map(local);
    const pending = requests.filter((_, i) => results[i] === null);
    if (pending.length === 0) return results as CheckResult[];
    const idempotent = pending.every((r) => r.dryRun === true);
    const answer = await postJson(
      transport,
      "/api/check/batch",
      { checks: pending },
      idempotent,
      call.signal,
    );
    const list =
      answer.ok && typeof answer.body === "object" && answer.body !== null
        ? (answer.body as { results?: unknown }).results
        : undefined;
    let next = 0;
    return requests.map((request, i) => {
      const done = results[i];
      if (done !== null && done !== undefined) return done;
      const sent = next++;
      const item: unknown = Array.isArray(list) ? list[sent] : undefined;
      if (!answer.ok) return fallback(request, answer.error);
      if (isDecision(item)) {
        remember(request, item);
        return fromSluice(item);
      }
      const error = (item as { error?: { code?: string; message?: string; path?: string } } | undefined)
        ?.error;
      return fallback(request, {
        kind: error ? "http" : "invalid_answer",
        status: error ? 400 : 200,
        message: error?.message ?? "the answer is not a decision",
        ...(error?.code !== undefined ? { code: error.code } : {}),
        // the server numbers the checks it was sent; the caller's numbering counts local ones too
        ...(error?.path !== undefined ? { path: error.path.replace(`checks[${sent}]`, `checks[${i}]`) } : {}),
      });
    });
  }

  async function adjust(checkId: string, amount: number, call: AdjustOptions = {}): Promise<AdjustResult> {
    const body = {
      checkId,
      amount,
      ...(call.idempotencyKey !== undefined ? { idempotencyKey: call.idempotencyKey } : {}),
    };
    // idempotent on the server (per checkId and key), so a retry can never count twice
    const answer = await postJson(transport, "/api/check/adjust", body, true, call.signal);
    if (!answer.ok) return { ok: false, error: answer.error };
    return { ok: true, ...(answer.body as Omit<Extract<AdjustResult, { ok: true }>, "ok">) };
  }

  const batchOptions = options.microBatch ?? false;
  const batched =
    batchOptions === false
      ? null
      : microBatcher(
          { one: (request) => checkOne(request), many: (requests) => checkBatch(requests) },
          batchOptions === true ? {} : batchOptions,
        );

  async function release(lease: string, call: CallOptions = {}): Promise<boolean> {
    // idempotent on the server: safe to retry as the transport does
    const answer = await postJson(transport, "/api/check/release", { lease }, true, call.signal);
    if (!answer.ok) return false;
    const body = answer.body as { released?: unknown } | null;
    return typeof body === "object" && body !== null && body.released === true;
  }

  return { check, checkBatch, adjust, release, options: { url, timeoutMs, onUnavailable } };
}
