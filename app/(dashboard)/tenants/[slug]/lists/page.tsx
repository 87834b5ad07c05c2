import type { Metadata } from "next";
import { requireUser } from "@/lib/control/auth/session";
import { tenantDetail } from "@/lib/control/data/queries/tenant-detail";
import { listsText } from "@/lib/control/data/edits/tenant-lists";
import { SimpleForm } from "@/components/forms/simple-form";
import { updateListsAction } from "@/app/(dashboard)/_actions/tenant-actions";
import { orNotFound } from "@/app/(dashboard)/_lib/load";

export const metadata: Metadata = { title: "Allow and deny lists" };

// The tenant's allow and deny lists and subnet keying (docs/configuration.md): editors
// change them here, viewers read them. Each entry is checked on save, errors naming the
// list and the entry's index.
export default async function TenantListsPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const user = await requireUser();
  const tenant = await orNotFound(tenantDetail(user, slug));
  const { deny, allow } = listsText(tenant.doc.lists);
  const subnets = tenant.doc.ipSubjects;
  const count = (text: string) => (text === "" ? 0 : text.split("\n").length);
  if (!tenant.can.edit)
    return (
      <div className="panel" data-testid="lists-view">
        <h2>Allow and deny lists</h2>
        <h3>Deny ({count(deny)})</h3>
        <pre>{deny || "none"}</pre>
        <h3>Allow ({count(allow)})</h3>
        <pre>{allow || "none"}</pre>
        <p>Subnet keying: {subnets ? `IPv6 /${subnets.ipv6}, IPv4 /${subnets.ipv4}` : "off"}</p>
      </div>
    );
  return (
    <div className="panel">
      <h2>Allow and deny lists</h2>
      <p className="muted">
        Met by each check&apos;s subject. A deny answers <code>deny_list</code> at once, without counting; an
        allow skips the limits it names, or every limit. The operator&apos;s global lists apply as well, and a
        deny in either wins. Entries: IPv4 or IPv6 addresses, CIDR ranges, or subjects, one a line.
      </p>
      <SimpleForm
        action={updateListsAction}
        submitLabel="Save lists"
        testId="lists-form"
        fields={[
          { name: "slug", label: "", type: "hidden", defaultValue: slug },
          {
            name: "deny",
            label: `Deny (${count(deny)} entries)`,
            type: "textarea",
            defaultValue: deny,
            placeholder: "203.0.113.0/24\n2001:db8:bad::/48\nscraper-42",
            hint: "an error's index counts the non-empty lines before the entry",
          },
          {
            name: "allow",
            label: `Allow (${count(allow)} entries)`,
            type: "textarea",
            defaultValue: allow,
            placeholder: "10.0.0.0/8\n2001:db8::/32 tenant-rpm,ip-per-min",
            hint: "an entry alone skips every limit; followed by limit names (comma-separated), only those",
          },
          {
            name: "subnets",
            label: "Count IP subjects by network",
            type: "select",
            options: ["off", "on"],
            defaultValue: subnets ? "on" : "off",
            hint: "on: one IPv6 user holding a /64 counts once in by: subject limits",
          },
          { name: "ipv6", label: "IPv6 prefix", defaultValue: String(subnets?.ipv6 ?? 64), hint: "0 to 128" },
          { name: "ipv4", label: "IPv4 prefix", defaultValue: String(subnets?.ipv4 ?? 32), hint: "0 to 32" },
        ]}
      />
    </div>
  );
}
