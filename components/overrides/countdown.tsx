"use client";

import { useEffect, useState } from "react";

// "ends in 59m 12s", ticking each second. Server and first client render agree on the text
// (from the time the page was made), then the clock takes over.

function spell(ms: number): string {
  if (ms <= 0) return "now";
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const parts = d > 0 ? [`${d}d`, `${h}h`] : h > 0 ? [`${h}h`, `${m}m`] : [`${m}m`, `${s % 60}s`];
  return parts.join(" ");
}

export function Countdown({ to, renderedAt, label }: { to: string; renderedAt: number; label: string }) {
  const target = Date.parse(to);
  const [now, setNow] = useState(renderedAt);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <span className="countdown mono" data-testid="countdown" title={to}>
      {label} {spell(target - now)}
    </span>
  );
}
