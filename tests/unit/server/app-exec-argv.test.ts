import { describe, expect, it } from "vitest";
import { appExecArgv } from "@/lib/server/app-process";

// The app process gets the front's node flags (source maps, profiling hooks) but its own
// heap cap: the front's cap (SLUICE_FRONT_HEAP_MB) is too small for Next.js and the rollup.

describe("the app process's node flags", () => {
  it("keeps the front's other flags and replaces its heap cap, in either spelling", () => {
    expect(appExecArgv(["--enable-source-maps", "--max-old-space-size=512"], 1024)).toEqual([
      "--enable-source-maps",
      "--max-old-space-size=1024",
    ]);
    expect(appExecArgv(["--max_old_space_size=64", "--cpu-prof"], 900)).toEqual([
      "--cpu-prof",
      "--max-old-space-size=900",
    ]);
    expect(appExecArgv(["--max-old-space-size", "256", "--import", "x.mjs"], 2048)).toEqual([
      "--import",
      "x.mjs",
      "--max-old-space-size=2048",
    ]);
  });

  it("leaves out the front's --no-memory-reducer, so the idle dashboard gives memory back", () => {
    expect(appExecArgv(["--no-memory-reducer", "--enable-source-maps"], 1024)).toEqual([
      "--enable-source-maps",
      "--max-old-space-size=1024",
    ]);
  });

  it("adds the cap when the front has none", () => {
    expect(appExecArgv([], 1024)).toEqual(["--max-old-space-size=1024"]);
  });
});
