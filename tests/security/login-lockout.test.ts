// Nobody can lock the operator out: ten wrong passwords locked an account for 15-22 minutes, the right
// password included, so anyone knowing admin@sluice.local could lock the operator out.
// Now guessing is refused per address (and address+account); per account it only slows.
import { describe, expect, it } from "vitest";
import { admitLoginAttempt, DELAY_CAP_MS, recordLoginFailure } from "@/lib/control/auth/login-limit";
import { uniqueSlug } from "../integration/dashboard/fixtures";

describe("a stranger cannot lock an owner out", () => {
  it("after 200 wrong passwords from 20 addresses the owner's own address is admitted, with a capped delay", async () => {
    const email = `${uniqueSlug("owner")}@lockout.test`;
    for (let a = 0; a < 20; a += 1) {
      const from = `203.0.113.${a}-${email}`;
      for (let i = 0; i < 10; i += 1) await recordLoginFailure(email, from);
      expect(await admitLoginAttempt(email, from)).toMatchObject({ ok: false, reason: "rate_limited" });
    }
    const owner = await admitLoginAttempt(email, `192.0.2.77-${email}`);
    expect(owner.ok).toBe(true);
    expect(owner.ok && owner.delayMs).toBe(DELAY_CAP_MS);
  });
});
