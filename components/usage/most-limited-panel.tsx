import "server-only";
import type { Principal } from "@/lib/shared/principal";
import { mostLimited } from "@/lib/usage/read/most-limited";
import { RANGES, type RangeId } from "@/lib/usage/ranges";
import { MostLimitedTable } from "@/components/usage/most-limited-table";
import { RangePicker } from "@/components/usage/range-picker";

// The overview's "most limited" panel: who is being limited across the viewer's tenants
// over the selected range (?range= on the overview's URL). Usage that cannot be read says
// so instead of failing the page.

export async function MostLimitedPanel({ principal, range }: { principal: Principal; range: RangeId }) {
  const entries = await mostLimited(principal, range).catch((error: unknown) => {
    console.error("[sluice] most limited:", error);
    return null;
  });
  return (
    <div className="panel" data-testid="most-limited-panel">
      <h2>Most limited</h2>
      <RangePicker current={range} hrefFor={(r) => (r === "15m" ? "/" : `/?range=${r}`)} />
      <p className="muted">
        Keys, routes and subjects with the most rejections in the last {RANGES[range].label} across your
        tenants; subjects over the last hour at most. Click a column to sort by it.
      </p>
      {entries === null ? (
        <p className="error">Usage could not be read right now.</p>
      ) : (
        <MostLimitedTable entries={entries} range={range} />
      )}
    </div>
  );
}
