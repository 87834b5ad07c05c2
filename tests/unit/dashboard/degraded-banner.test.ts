import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DegradedBanner, type DegradedBannerProps } from "@/components/usage/degraded-banner";
import { canActOnDegraded, noCauses } from "@/lib/usage/read/degraded-causes";
import type { Principal, Role } from "@/lib/shared/principal";

// The degraded banner per reader: operators and tenant admins see each cause with its count
// and rate per minute and where the metrics are; viewers a short status without causes.

const causes = { ...noCauses(), local_overload: 300, redis_timeout: 30 };
const banner = (props: Partial<DegradedBannerProps>): string =>
  renderToStaticMarkup(
    createElement(DegradedBanner, {
      degraded: 345,
      where: "in the last 15 min",
      minutes: 15,
      full: true,
      causes,
      ...props,
    }),
  ).replace(/<!-- -->/g, "");

const user = (role: Role | null, operator = false): Principal => ({
  kind: "user",
  id: "u",
  email: "u@x.test",
  name: "U",
  isOperator: operator,
  memberships: new Map(role ? [["T1", role]] : []),
});

describe("degraded banner", () => {
  it("names each cause with its count per minute and links the metrics, for those who can act", () => {
    const html = banner({});
    expect(html).toContain("345 degraded decisions</strong> in the last 15 min (23.0/min)");
    expect(html).toContain('data-cause="local_overload"><strong>Sluice overloaded</strong>: 300 (20.0/min)');
    expect(html).toContain('data-cause="redis_timeout"><strong>Redis timeout</strong>: 30 (2.0/min)');
    expect(html).not.toContain('data-cause="connection_lost"');
    expect(html).toContain("15 without a recorded cause");
    expect(html).toContain('<a href="/api/metrics">/api/metrics</a>');
    expect(html).toContain("sluice_event_loop_delay_seconds");
  });

  it("gives viewers a short status: no causes, no metrics", () => {
    const html = banner({ full: false });
    expect(html).toContain("345 degraded decisions</strong> in the last 15 min");
    expect(html).toContain("Tenant admins and operators see the cause");
    expect(html).not.toMatch(/data-cause|api\/metrics|overloaded/);
  });

  it("shows nothing without degraded decisions, and the rate alone when the causes are not known", () => {
    expect(banner({ degraded: 0 })).toBe("");
    const html = banner({ causes: null, minutes: 60 });
    expect(html).toContain("(5.8/min)");
    expect(html).not.toContain("data-cause");
  });

  it("is full for operators and tenant admins or owners, short for editors and viewers", () => {
    expect(canActOnDegraded(user(null, true), ["T1"])).toBe(true);
    expect(canActOnDegraded(user("owner"), ["T1"])).toBe(true);
    expect(canActOnDegraded(user("admin"), ["T1"])).toBe(true);
    expect(canActOnDegraded(user("editor"), ["T1"])).toBe(false);
    expect(canActOnDegraded(user("viewer"), ["T1"])).toBe(false);
    expect(canActOnDegraded(user("admin"), ["T2"])).toBe(false);
  });
});
