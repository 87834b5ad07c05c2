// The table of npm run bench:config: one row per measure, one column per size, and the
// goals judged on the largest size measured (10,000 tenants in a full run).
import type { SizeResult } from "./run-size";
import { spread } from "./stats";

const time = (ms: number | null | undefined): string => {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "-";
  if (ms < 10) return `${ms.toFixed(1)} ms`;
  return ms < 1_000 ? `${Math.round(ms)} ms` : `${(ms / 1_000).toFixed(1)} s`;
};
const mb = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MB`;
const kb = (bytes: number): string => (bytes < 10_240 ? `${bytes} B` : `${(bytes / 1024).toFixed(0)} KB`);

interface Measure {
  what: string;
  cell(r: SizeResult): string;
  /** the goal, judged on one size: null when the row has none */
  goal?: { text: string; met(r: SizeResult): boolean | null };
}

/** checks not answered 200 "ok" (a key the servers do not know, an error): the figures then mislead */
const errors = (n: number): string => (n > 0 ? ` (${n} checks not "ok")` : "");
const cut = (capMs: number): string => `> ${Math.round(capMs / 1_000)} s (cut)`;
const p = (values: Array<number | null>) => spread(values.filter((v): v is number => v !== null));
const cutCount = (values: Array<number | null>) => values.filter((v) => v === null).length;
const ratio = (r: SizeResult, s: "a" | "b"): number =>
  r.during && r.quiet ? r.during[s].p99 / r.quiet[s].p99 : Number.NaN;

export const measures: Measure[] = [
  {
    what: "whole import, one PUT /api/admin/config (document size)",
    cell: (r) => {
      const i = r.imported;
      if (!i) return "failed";
      const size = mb(i.documentBytes);
      if ("ms" in i.whole) return `${time(i.whole.ms)} (${size})`;
      return "cutMs" in i.whole ? `${cut(i.whole.cutMs)} (${size})` : `refused ${i.whole.refused} (${size})`;
    },
    goal: {
      text: "<= 30 s",
      met: (r) => (r.imported && "ms" in r.imported.whole ? r.imported.whole.ms <= 30_000 : false),
    },
  },
  {
    what: "import in PUTs of 250 tenants, halved on a 5xx (only after a refusal)",
    cell: (r) => {
      const parts = r.imported?.parts;
      if (!parts) return "-";
      return "cutMs" in parts
        ? `${cut(parts.cutMs)}, ${parts.done.toLocaleString("en-US")} tenants in`
        : `${parts.count} PUTs (down to ${parts.smallest} tenants), ${time(parts.ms)}`;
    },
  },
  {
    what: "import enforced on both servers, after its answer",
    cell: (r) => (r.imported?.complete ? time(r.imported.enforcedMs) : "-"),
  },
  {
    what: "keys (3 a tenant): SQL insert + the change publishing them (+ enforced)",
    cell: (r) =>
      r.keys ? `${time(r.keys.sqlMs)} + ${time(r.keys.changeMs)} (+ ${time(r.keys.enforcedMs)})` : "-",
  },
  {
    what: "one tenant's change answered, p50 / p99 (changes)",
    cell: (r) => {
      const c = r.changes;
      if (!c) return "-";
      const s = spread(c.answerMs);
      return `${time(s.p50)} / ${time(s.p99)} (${s.n}${c.cut ? `, ${c.cut} cut` : ""})`;
    },
    goal: {
      text: "p99 <= 1 s",
      met: (r) => (r.changes ? r.changes.cut === 0 && spread(r.changes.answerMs).p99 <= 1_000 : null),
    },
  },
  {
    what: "propagation: A's answer to B enforcing, p50 / p99",
    cell: (r) => {
      const c = r.changes;
      if (!c) return "-";
      const s = p(c.propagationMs);
      const lost = cutCount(c.propagationMs);
      return `${time(s.p50)} / ${time(s.p99)}${lost ? ` (${lost} > 30 s, cut)` : ""}`;
    },
    goal: {
      text: "p99 <= 1 s",
      met: (r) =>
        r.changes ? cutCount(r.changes.propagationMs) === 0 && p(r.changes.propagationMs).p99 <= 1_000 : null,
    },
  },
  {
    what: "limit held across servers: allowed of sent over A and B (limit)",
    cell: (r) =>
      r.held
        ? `${r.held.allowed} of ${r.held.sent} (${r.held.limit}; enforced on both ${time(r.held.enforcedMs)} after the import)`
        : "-",
    goal: { text: "exactly the limit", met: (r) => (r.held ? r.held.allowed === r.held.limit : null) },
  },
  {
    what: "quiet check p50 / p99 / max (A; B)",
    cell: (r) =>
      r.quiet
        ? (["a", "b"] as const)
            .map((s) => `${time(r.quiet![s].p50)} / ${time(r.quiet![s].p99)} / ${time(r.quiet![s].max)}`)
            .join("; ")
        : "-",
  },
  {
    what: "quiet checks over 50 ms (of all) (A; B)",
    cell: (r) =>
      r.quiet
        ? `${r.quiet.a.over50} of ${r.quiet.a.n}; ${r.quiet.b.over50} of ${r.quiet.b.n}${errors(r.quiet.errors)}`
        : "-",
    goal: { text: "none", met: (r) => (r.quiet ? r.quiet.a.over50 + r.quiet.b.over50 === 0 : null) },
  },
  {
    what: "check p99 during changes (A; B), x quiet",
    cell: (r) =>
      r.during
        ? (["a", "b"] as const)
            .map((s) => `${time(r.during![s].p99)} (${ratio(r, s).toFixed(2)}x)`)
            .join("; ") +
          `, ${r.during.answered} of ${r.during.made} changes answered` +
          errors(r.during.errors)
        : "-",
    goal: {
      text: "<= 1.2x quiet",
      met: (r) => (r.during ? Math.max(ratio(r, "a"), ratio(r, "b")) <= 1.2 : null),
    },
  },
  {
    what: "bytes of the version of a key created (config + audit)",
    cell: (r) =>
      r.keyBytes
        ? `${kb(r.keyBytes.config + r.keyBytes.audit)} (${kb(r.keyBytes.config)} + ${kb(r.keyBytes.audit)})`
        : "-",
    goal: {
      text: "<= 2 KB",
      met: (r) => (r.keyBytes ? r.keyBytes.config + r.keyBytes.audit <= 2_048 : null),
    },
  },
  {
    what: "bytes of the version of one tenant's limit change (config + audit)",
    cell: (r) =>
      r.changeBytes
        ? `${kb(r.changeBytes.config + r.changeBytes.audit)} (${kb(r.changeBytes.config)} + ${kb(r.changeBytes.audit)})`
        : "-",
  },
  {
    what: "front RSS after the import (A; B)",
    cell: (r) => (r.rss ? `${mb(r.rss.a)}; ${mb(r.rss.b)}` : "-"),
  },
];

export function table(results: readonly SizeResult[]): string {
  const last = results[results.length - 1];
  const sizes = results.map((r) => r.tenants.toLocaleString("en-US"));
  const goalHead = last ? `goal (at ${last.tenants.toLocaleString("en-US")})` : "goal";
  const lines = [
    `| measure | ${sizes.join(" | ")} | ${goalHead} |`,
    `| --- | ${sizes.map(() => "---:").join(" | ")} | --- |`,
  ];
  for (const m of measures) {
    const verdict = m.goal && last ? m.goal.met(last) : null;
    const goal = m.goal
      ? `${m.goal.text}: ${verdict === null ? "not measured" : verdict ? "pass" : "MISS"}`
      : "";
    lines.push(`| ${m.what} | ${results.map((r) => m.cell(r)).join(" | ")} | ${goal} |`);
  }
  const notes = results.flatMap((r) => r.notes.map((n) => `- ${r.tenants} tenants: ${n}`));
  return [...lines, ...(notes.length ? ["", ...notes] : [])].join("\n");
}
