"use client";

import { useSearchParams } from "next/navigation";
import { useEffect } from "react";

// After Save the editor comes back with ?saved=<limit name>: confirm it, and bring the
// changed row into view (opening the folded route group it sits in) instead of leaving
// the user at the top of a long page.

export function SavedNotice() {
  const saved = useSearchParams().get("saved");
  useEffect(() => {
    if (!saved) return;
    const row = document.querySelector<HTMLElement>(`[data-testid="limit-${CSS.escape(saved)}"]`);
    if (!row) return;
    for (let el = row.parentElement; el; el = el.parentElement)
      if (el instanceof HTMLDetailsElement) el.open = true;
    row.classList.add("just-saved");
    row.scrollIntoView({ block: "center" });
  }, [saved]);
  if (!saved) return null;
  return (
    <div className="banner banner-ok" role="status" data-testid="saved-notice">
      Saved <strong>{saved}</strong>. Checks use it within a second.
    </div>
  );
}
