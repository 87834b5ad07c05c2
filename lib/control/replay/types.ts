import { z } from "zod";
import { ACTIONS, ALGORITHMS, LIMIT_BY } from "@/lib/shared/limit-types";

// The what-if replay's question and answer (docs/replay.md). Isomorphic: the editor's chart
// imports these types; the API and the server action parse requests with the schemas.

/** The longest range a replay reads: the seconds data is kept an hour by default. */
export const MAX_RANGE_MINUTES = 60;
/** Counter owners (keys or subjects) replayed; the busiest are kept, the rest counted. */
export const MAX_SERIES = 200;
/**
 * Recorded counts read, at most: hash fields (sized first), and counts per second, key and
 * route (or subject) read, the minute that passes it being the last.
 */
export const MAX_FIELDS = 400_000;
/** Checks fed through the reference model per rule; past it the replay stops early. */
export const MAX_CHECKS = 400_000;
/** Rows of the top-affected list. */
export const TOP_ROWS = 10;

const rule = z.strictObject({
  algorithm: z.enum(ALGORITHMS, { error: `must be one of ${ALGORITHMS.join(", ")}` }),
  limit: z.number().int().min(1).max(1_000_000_000, { error: "must be an integer 1..1000000000" }),
  windowMs: z
    .number()
    .int()
    .min(1)
    .max(365 * 86_400_000, { error: "must be 1 ms .. 365 d" }),
  burst: z.number().int().min(1).max(1_000_000_000).nullable(),
  action: z.enum(ACTIONS),
  maxDelayMs: z
    .number()
    .int()
    .min(0)
    .max(365 * 86_400_000)
    .nullable(),
});
export type ReplayRule = z.infer<typeof rule>;

export const replayRequestSchema = z.strictObject({
  tenant: z.string().min(1).max(63),
  /** a key name: the limit is declared on that key (only its checks count) */
  key: z.string().min(1).max(63).optional(),
  /** only checks on this route pattern count */
  route: z.string().min(1).max(2048).optional(),
  by: z.enum(LIMIT_BY, { error: `must be one of ${LIMIT_BY.join(", ")}` }),
  proposed: rule,
  /** null: no limit of that name today (every recorded check would have passed it) */
  current: rule.nullable(),
  minutes: z
    .number()
    .int()
    .min(1, { error: `must be 1..${MAX_RANGE_MINUTES}` })
    .max(MAX_RANGE_MINUTES, { error: `must be 1..${MAX_RANGE_MINUTES}` })
    .default(60),
});
export type ReplayRequest = z.input<typeof replayRequestSchema>;
export type ReplayQuery = z.output<typeof replayRequestSchema>;

export interface ReplayPoint {
  /** start of the minute, epoch ms */
  t: number;
  checks: number;
  currentRejected: number;
  proposedRejected: number;
}

export interface ReplayRow {
  kind: "key" | "subject" | "route";
  /** key name, subject, or route pattern ("" when none was sent) */
  name: string;
  checks: number;
  currentRejected: number;
  proposedRejected: number;
}

export interface ReplayResult {
  from: number;
  to: number;
  stepMs: number;
  /** "keys": the seconds hashes (per key and route); "subjects": the per-subject series */
  source: "keys" | "subjects";
  points: ReplayPoint[];
  totals: { checks: number; currentRejected: number; proposedRejected: number };
  top: ReplayRow[];
  bounds: {
    /** true when a cap cut the replay short: the counts cover part of the range or owners */
    truncated: boolean;
    fieldsRead: number;
    series: number;
    seriesLeftOut: number;
    checksReplayed: number;
    /** subject limits: checks of subjects past the recording cap, not replayed */
    unattributed: number;
  };
  /** what this replay could not know, in plain words */
  caveats: string[];
}
