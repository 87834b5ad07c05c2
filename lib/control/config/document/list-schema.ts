// Allow and deny lists (docs/configuration.md): a tenant's under `tenants[i].lists`, the
// operator's global ones under the document's top-level `lists`. Each entry is an IP
// address, a CIDR range (IPv4 or IPv6) or a subject; an error names the list and the
// entry's index: `tenants[0].lists.deny[3]: the prefix length of "10.0.0.0/33" must be ...`.
// How many entries a list may hold is a cap of the installation (count-caps.ts).

import { z } from "zod";
import { readEntry } from "@/lib/check/lists/list-entry";
import type { AllowEntry, PublishedLists } from "@/lib/check/lists/list-types";
import { DEFAULT_SUBNET_PREFIXES, type SubnetPrefixes } from "@/lib/check/lists/subnet-subject";

import { nameSchema } from "./field-schemas";

const ENTRY_HINT = "must be an IP address, a CIDR range or a subject (text)";

const entrySchema = z.string({ error: ENTRY_HINT }).superRefine((value, ctx) => {
  const read = readEntry(value);
  if (!read.ok) ctx.addIssue({ code: "custom", message: read.message });
});

const allowObjectSchema = z.strictObject({
  entry: entrySchema,
  /** the limits it skips; left out: all of them */
  limits: z
    .array(nameSchema)
    .min(1, { error: "must name at least one limit (leave `limits` out to skip every limit)" })
    .max(100, { error: "must name at most 100 limits" }),
});

const allowEntrySchema: z.ZodType<AllowEntry> = z.union([entrySchema, allowObjectSchema], {
  error: (issue) =>
    typeof issue.input === "string" ? undefined : `${ENTRY_HINT}, or { entry, limits: [names] }`,
});

export const listsSchema: z.ZodType<PublishedLists, unknown> = z.strictObject({
  deny: z.array(entrySchema).default([]),
  allow: z.array(allowEntrySchema).default([]),
});

const prefix = (most: number) =>
  z
    .number({ error: `must be a prefix length from 0 to ${most}` })
    .int({ error: `must be a prefix length from 0 to ${most}` })
    .min(0, { error: `must be a prefix length from 0 to ${most}` })
    .max(most, { error: `must be a prefix length from 0 to ${most}` });

/** `ipSubjects: {}` counts IPv6 subjects by /64 and IPv4 ones by address (/32). */
export const ipSubjectsSchema: z.ZodType<SubnetPrefixes, unknown> = z.strictObject({
  ipv4: prefix(32).default(DEFAULT_SUBNET_PREFIXES.ipv4),
  ipv6: prefix(128).default(DEFAULT_SUBNET_PREFIXES.ipv6),
});

/** Entries in a tenant's or the global lists (the cap counts both lists together). */
export const listEntryCount = (lists: PublishedLists | undefined): number =>
  lists === undefined ? 0 : lists.deny.length + lists.allow.length;
