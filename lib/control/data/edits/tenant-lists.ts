import "server-only";
import { z } from "zod";
import type { Principal } from "@/lib/shared/principal";
import { NAME_PATTERN } from "@/lib/control/config/document";
import type { ImportResult } from "@/lib/control/data/import-config";
import { importTenant, readTenantDoc } from "@/lib/control/data/edits/document-edit";
import type { AllowEntry, PublishedLists } from "@/lib/check/lists/list-types";
import type { SubnetPrefixes } from "@/lib/check/lists/subnet-subject";

// The Lists tab's edit (docs/configuration.md, allow and deny lists): one entry a line, an
// allow line optionally followed by the limit names it skips ("10.0.0.0/8 tenant-rpm,ip-per-min").
// It goes through the tenant's import like every edit, so entries are checked there and an
// error names the list and the entry's index (the count of non-empty lines before it).

const text = z.string().max(4_000_000, { error: "must be at most 4,000,000 characters" }).default("");
const prefixText = z
  .string()
  .regex(/^\d{0,3}$/, { error: "must be a prefix length (digits)" })
  .default("");

export const UpdateListsInput = z.strictObject({
  slug: z.string().regex(NAME_PATTERN, { error: "choose a tenant" }),
  deny: text,
  allow: text,
  subnets: z.enum(["off", "on"], { error: "must be off or on" }).default("off"),
  ipv6: prefixText,
  ipv4: prefixText,
});

const lines = (value: string): string[] =>
  value
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "");

function allowEntry(line: string): AllowEntry {
  const [entry = "", names] = line.split(/\s+/, 2);
  if (names === undefined) return entry;
  return { entry, limits: names.split(",").filter((name) => name !== "") };
}

/** The lists as the Lists tab writes them: one entry a line. */
export function listsText(lists: PublishedLists | undefined): { deny: string; allow: string } {
  const allow = (lists?.allow ?? []).map((e) =>
    typeof e === "string" ? e : `${e.entry} ${e.limits.join(",")}`,
  );
  return { deny: (lists?.deny ?? []).join("\n"), allow: allow.join("\n") };
}

export async function updateTenantLists(
  principal: Principal,
  input: z.infer<typeof UpdateListsInput>,
): Promise<ImportResult> {
  const current = await readTenantDoc(principal, input.slug, "editor");
  const lists: PublishedLists = { deny: lines(input.deny), allow: lines(input.allow).map(allowEntry) };
  const empty = lists.deny.length === 0 && lists.allow.length === 0;
  // the import checks the numbers (0..32, 0..128) and names the field
  const ipSubjects: SubnetPrefixes | undefined =
    input.subnets === "on"
      ? {
          ipv4: input.ipv4 === "" ? 32 : Number(input.ipv4),
          ipv6: input.ipv6 === "" ? 64 : Number(input.ipv6),
        }
      : undefined;
  return importTenant(principal, { ...current, lists: empty ? undefined : lists, ipSubjects });
}
