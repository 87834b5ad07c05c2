import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ApiError } from "@/lib/control/api/api-error";
import { errorResponse, toApiError } from "@/lib/control/api/map-error";
import { ConflictError, ForbiddenError, NotFoundError, ValidationFailed } from "@/lib/control/errors/errors";
import { StoreUnavailableError } from "@/lib/control/data/counters-store";

describe("ApiError", () => {
  it("answers the docs/api.md body, path only when there is one", () => {
    expect(new ApiError("not_found", "No tenant named x.").body()).toEqual({
      error: { code: "not_found", message: "No tenant named x." },
    });
    expect(new ApiError("invalid_request", "bad", "step").body()).toEqual({
      error: { code: "invalid_request", message: "bad", path: "step" },
    });
  });
});

describe("toApiError", () => {
  it.each([
    [new NotFoundError("No tenant named x."), 404, "not_found"],
    [new ForbiddenError("no"), 403, "forbidden"],
    [new ConflictError("taken", "name"), 409, "conflict"],
    [new ValidationFailed([{ path: "a", message: "m" }]), 422, "validation_failed"],
    [new StoreUnavailableError(new Error("ECONNREFUSED")), 503, "store_unavailable"],
    [Object.assign(new Error("Unique constraint failed"), { code: "P2002" }), 409, "conflict"],
  ])("%s -> %i %s", (error, status, code) => {
    const mapped = toApiError(error);
    expect(mapped?.status).toBe(status);
    expect(mapped?.code).toBe(code);
  });

  it("lists every validation error with its path", () => {
    const mapped = toApiError(
      new ValidationFailed([
        { path: "tenants[0].slug", message: "bad" },
        { path: "plans[1].limits[0].window", message: "must be a duration > 0" },
      ]),
    );
    expect(mapped?.body().errors).toEqual([
      { path: "tenants[0].slug", message: "bad" },
      { path: "plans[1].limits[0].window", message: "must be a duration > 0" },
    ]);
    expect(mapped?.message).toMatch(/2 errors/);
  });

  it("turns zod errors into 400 naming the first field", () => {
    const result = z
      .strictObject({ name: z.string(), role: z.enum(["a"]) })
      .safeParse({ name: "x", role: "b" });
    const mapped = toApiError(result.error);
    expect(mapped?.status).toBe(400);
    expect(mapped?.path).toBe("role");
  });

  it("does not recognise anything else", () => {
    expect(toApiError(new Error("boom"))).toBeNull();
  });
});

describe("errorResponse", () => {
  it("hides an unknown error behind a 500 with the request id", async () => {
    const original = console.error;
    console.error = () => undefined;
    try {
      const response = errorResponse(new Error("select * from secrets failed at db.ts:12"), "req-1");
      expect(response.status).toBe(500);
      expect(response.headers.get("x-request-id")).toBe("req-1");
      const text = await response.text();
      expect(text).not.toMatch(/secrets|db\.ts/);
      expect(JSON.parse(text)).toMatchObject({ error: { code: "internal_error" } });
    } finally {
      console.error = original;
    }
  });
});
