import { once } from "node:events";
import { readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { luaDir } from "@/lib/shared/redis/lua-files";
import { RollupLease } from "@/lib/usage/lease";
import { connect, masters, RUN } from "./redis";

// Every Lua script is in lua/ (readable and reviewable as Lua) and loaded one way, EVALSHA
// with the text again after NOSCRIPT; lua/ is found from the code, not from the working
// directory.

const redis = connect();
beforeAll(async () => {
  if (redis.status !== "ready") await once(redis, "ready");
});
afterAll(async () => {
  await redis.quit();
});

describe("Lua scripts", () => {
  it("are read from the project's lua/, wherever the process was started", () => {
    const cwd = process.cwd();
    process.chdir(tmpdir());
    try {
      expect(luaDir()).toBe(fileURLToPath(new URL("../../../lua", import.meta.url)));
    } finally {
      process.chdir(cwd);
    }
    expect(readdirSync(luaDir())).toEqual(
      expect.arrayContaining(["publish-parts.lua", "lease-acquire.lua", "lease-release.lua"]),
    );
  });

  it("run the lease by SHA and survive SCRIPT FLUSH (NOSCRIPT sends the text once)", async () => {
    const keys = { lease: `{${RUN}}:lease`, fence: `{${RUN}}:fence` };
    const mine = new RollupLease(redis, keys, "a", 5_000);
    const theirs = new RollupLease(redis, keys, "b", 5_000);
    expect(await mine.acquire()).toBe(true);
    for (const node of masters(redis)) await node.script("FLUSH");
    expect(await theirs.acquire()).toBe(false);
    expect(await mine.acquire()).toBe(true);
    expect(await mine.setIfHolder(`{${RUN}}:mark`, "1")).toBe(true);
    expect(await theirs.setIfHolder(`{${RUN}}:mark`, "2")).toBe(false);
    await mine.release();
    expect(await theirs.acquire()).toBe(true);
    expect(theirs.fenceToken).toBe("b|2");
    await theirs.release();
  });
});
