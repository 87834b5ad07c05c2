// The part of the server's export that a file can change, for the line diff: an import
// replaces the plans and the global routes only when the file lists them, and touches only
// the tenants it lists unless --prune (then every tenant not listed is deleted). Diffing the
// whole export against a file of one tenant would show everything else as "removed".
import { isMap, isScalar, isSeq, parseDocument, type YAMLMap } from "yaml";

export function exportScopedTo(exportText: string, fileInput: unknown, prune: boolean): string {
  if (typeof fileInput !== "object" || fileInput === null || Array.isArray(fileInput)) return exportText;
  const file = fileInput as Record<string, unknown>;
  const document = parseDocument(exportText);
  if (!isMap(document.contents)) return exportText;
  for (const section of ["plans", "routes", "tenants"]) {
    if (!(section in file) && !(section === "tenants" && prune)) document.delete(section);
  }
  const tenants = document.get("tenants");
  if (!prune && isSeq(tenants) && Array.isArray(file.tenants)) {
    const listed = new Set(
      file.tenants.map((t: unknown) =>
        typeof t === "object" && t !== null ? (t as { slug?: unknown }).slug : null,
      ),
    );
    tenants.items = tenants.items.filter((item) => isMap(item) && listed.has(item.get("slug")));
  }
  if (isSeq(tenants) && Array.isArray(file.tenants)) {
    const written = new Map<unknown, Record<string, unknown>>();
    for (const t of file.tenants as unknown[])
      if (typeof t === "object" && t !== null)
        written.set((t as { slug?: unknown }).slug, t as Record<string, unknown>);
    for (const item of tenants.items)
      if (isMap(item)) dropUnwrittenDefaults(item, written.get(item.get("slug")));
  }
  return document.toString({ lineWidth: 0, flowCollectionPadding: true });
}

// The export spells out defaults (status: active, empty routes and keys) that a hand-written
// file leaves out; they are not differences, so the diff leaves them out too.
function dropUnwrittenDefaults(tenant: YAMLMap, written: Record<string, unknown> | undefined): void {
  if (written === undefined) return;
  for (const pair of [...tenant.items]) {
    const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    if (key in written) continue;
    const value = pair.value;
    const empty = (isSeq(value) || isMap(value)) && value.items.length === 0;
    const active = key === "status" && isScalar(value) && value.value === "active";
    if (empty || active) tenant.delete(key);
  }
}
