import Link from "next/link";
import type { ReactNode } from "react";
import { SignOutButton } from "@/components/auth/sign-out-button";
import { DatabaseDown } from "@/components/shell/database-down";
import { HeaderMenu } from "@/components/shell/header-menu";
import { UsageStorageStatus } from "@/components/shell/usage-storage-status";
import { TimeZoneProvider } from "@/components/charts/time-zone-context";
import { requireUser } from "@/lib/control/auth/session";
import { isDatabaseUnavailable } from "@/lib/control/errors/errors";

export const dynamic = "force-dynamic";

/** The signed-in user, or null while PostgreSQL cannot be reached (redirects pass through). */
async function userUnlessDatabaseDown(): Promise<Awaited<ReturnType<typeof requireUser>> | null> {
  try {
    return await requireUser();
  } catch (error) {
    if (isDatabaseUnavailable(error)) return null;
    throw error;
  }
}

// Every dashboard page is behind this check (and each DAL call checks again). With the
// database down, a banner instead of the page: the page, never rendered, asks it nothing.
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const user = await userUnlessDatabaseDown();
  if (!user) return <DatabaseDown />;
  return (
    <>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <header className="shell-header">
        <Link href="/" className="brand">
          Sluice
        </Link>
        <HeaderMenu>
          <nav aria-label="Main">
            <Link href="/">Tenants</Link>
            <Link href="/usage">Usage</Link>
            {user.isOperator && <Link href="/plans">Plans &amp; routes</Link>}
            {user.isOperator && <Link href="/tokens">Tokens</Link>}
            {user.isOperator && <Link href="/overrides">Overrides</Link>}
            {user.isOperator && <Link href="/audit">Audit log</Link>}
            {user.isOperator && <Link href="/health">Check health</Link>}
            {user.isOperator && <Link href="/config">Import / export</Link>}
            {user.isOperator && <Link href="/users">Accounts</Link>}
            <Link href="/api-reference">API</Link>
            <Link href="/account">Your account</Link>
          </nav>
          <form method="get" action="/search" role="search" className="header-search">
            <input
              type="search"
              name="q"
              aria-label="Search tenants, keys and subjects"
              placeholder="Search"
              maxLength={100}
              data-testid="global-search"
            />
          </form>
          <span className="muted" data-testid="signed-in-as">
            {user.email}
            {user.isOperator ? " · operator" : ""}
          </span>
          <SignOutButton />
        </HeaderMenu>
      </header>
      <main id="main" className="shell-main">
        <UsageStorageStatus operator={user.isOperator} />
        <TimeZoneProvider zone={user.timeZone ?? "UTC"}>{children}</TimeZoneProvider>
      </main>
    </>
  );
}
