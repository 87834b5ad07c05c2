import type { Metadata } from "next";
import Link from "next/link";
import { z } from "zod";
import { requireUser } from "@/lib/control/auth/session";
import { searchConsole } from "@/lib/control/data/queries/global-search";
import { firstParam, MAX_SEARCH, type RawParams } from "@/lib/control/lists/list-params";

export const metadata: Metadata = { title: "Search" };

// The header search's results: tenants, API keys (by name or prefix) and a subject's lookup,
// each linking to its page; only within the tenants the user sees.

const Query = z.string().max(MAX_SEARCH, `q is at most ${MAX_SEARCH} characters`);

export default async function SearchPage({ searchParams }: { searchParams: Promise<RawParams> }) {
  const user = await requireUser();
  const text = firstParam(await searchParams, "q") ?? "";
  const parsed = Query.safeParse(text);
  const q = parsed.success ? parsed.data : "";
  const found = q === "" ? null : await searchConsole(user, q);
  const enc = encodeURIComponent;
  return (
    <section data-testid="search-results">
      <h1>Search{q !== "" ? `: ${q}` : ""}</h1>
      {!parsed.success && (
        <p className="error" role="alert">
          {parsed.error.issues[0]?.message}
        </p>
      )}
      {found === null ? (
        <p className="muted">
          Type a tenant, an API key&apos;s name or prefix, or a subject in the search box.
        </p>
      ) : (
        <>
          <div className="panel">
            <h2>Tenants</h2>
            {found.tenants.length === 0 ? (
              <p className="muted">No tenant matches.</p>
            ) : (
              <ul data-testid="search-tenants">
                {found.tenants.map((t) => (
                  <li key={t.slug}>
                    <Link href={`/tenants/${enc(t.slug)}`}>{t.name}</Link>{" "}
                    <span className="muted mono">{t.slug}</span>
                  </li>
                ))}
              </ul>
            )}
            {found.tenants.length > 0 && (
              <p>
                <Link href={`/?q=${enc(q)}`}>All matching tenants in the list</Link>
              </p>
            )}
          </div>
          <div className="panel">
            <h2>API keys</h2>
            {found.keys.length === 0 ? (
              <p className="muted">No key matches.</p>
            ) : (
              <ul data-testid="search-keys">
                {found.keys.map((k) => (
                  <li key={`${k.tenant}/${k.name}`}>
                    <Link href={`/tenants/${enc(k.tenant)}/keys?q=${enc(k.name)}`}>{k.name}</Link>{" "}
                    <span className="muted mono">
                      {k.prefix}… · {k.tenant}
                      {k.revoked ? " · revoked" : ""}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </div>
          <div className="panel">
            <h2>Subject</h2>
            {found.subjectTenants.length === 0 ? (
              <p className="muted">No tenant to look a subject up in.</p>
            ) : (
              <ul data-testid="search-subjects">
                {found.subjectTenants.map((slug) => (
                  <li key={slug}>
                    <Link href={`/tenants/${enc(slug)}/lookup?subject=${enc(q)}`}>
                      Look up subject “{q}” in {slug}
                    </Link>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </>
      )}
    </section>
  );
}
