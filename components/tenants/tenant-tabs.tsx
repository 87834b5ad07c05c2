"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

interface Can {
  edit: boolean;
  admin: boolean;
  own: boolean;
  operate: boolean;
}

export function TenantTabs({ slug, can }: { slug: string; can: Can }) {
  const path = usePathname();
  const base = `/tenants/${slug}`;
  const tabs = [
    { href: base, label: "Limits" },
    { href: `/usage/${slug}`, label: "Usage" },
    { href: `${base}/keys`, label: "API keys" },
    { href: `${base}/routes`, label: "Routes" },
    { href: `${base}/lists`, label: "Lists" },
    ...(can.admin ? [{ href: `${base}/tokens`, label: "Tokens" }] : []),
    { href: `${base}/members`, label: "Members" },
    { href: `${base}/audit`, label: "Audit log" },
    { href: `${base}/config`, label: "YAML" },
    { href: `${base}/simulate`, label: "Simulator" },
    { href: `${base}/lookup`, label: "Lookup" },
    { href: `${base}/decisions`, label: "Decisions" },
    { href: `${base}/history`, label: "History" },
    { href: `${base}/alerts`, label: "Alerts" },
    ...(can.own ? [{ href: `${base}/settings`, label: "Settings" }] : []),
  ];
  return (
    <nav aria-label="Tenant" className="tabs">
      {tabs.map((tab) => {
        const current =
          tab.href === base ? path === base || path.startsWith(`${base}/limits`) : path.startsWith(tab.href);
        return (
          <Link key={tab.href} href={tab.href} aria-current={current ? "page" : undefined}>
            {tab.label}
          </Link>
        );
      })}
    </nav>
  );
}
