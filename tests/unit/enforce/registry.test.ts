import { describe, expect, it } from "vitest";
import { Registry } from "@/lib/shared/metrics-registry";

describe("Prometheus registry", () => {
  it("renders counters, gauges and cumulative histogram buckets in text format", () => {
    const registry = new Registry();
    const checks = registry.counter("x_checks_total", "Checks.", ["outcome"]);
    checks.cell("allowed").value += 2;
    checks.cell('we"ird').value += 1;
    registry.gauge("x_version", "Version.").cell().value = 7;
    const latency = registry.histogram("x_seconds", "Latency.", [0.001, 0.01]);
    latency.observe(0.0005);
    latency.observe(0.005);
    latency.observe(2);
    expect(registry.render()).toBe(
      [
        "# HELP x_checks_total Checks.",
        "# TYPE x_checks_total counter",
        'x_checks_total{outcome="allowed"} 2',
        'x_checks_total{outcome="we\\"ird"} 1',
        "# HELP x_version Version.",
        "# TYPE x_version gauge",
        "x_version 7",
        "# HELP x_seconds Latency.",
        "# TYPE x_seconds histogram",
        'x_seconds_bucket{le="0.001"} 1',
        'x_seconds_bucket{le="0.01"} 2',
        'x_seconds_bucket{le="+Inf"} 3',
        "x_seconds_sum 2.0055",
        "x_seconds_count 3",
        "",
      ].join("\n"),
    );
  });
});
