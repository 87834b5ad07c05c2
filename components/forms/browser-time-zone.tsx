"use client";

import { useSyncExternalStore } from "react";

const never = (): (() => void) => () => undefined;

/** The browser's own time zone, named beside the setting (the server cannot know it). */
export function BrowserTimeZone({ current }: { current: string }) {
  const zone = useSyncExternalStore(
    never,
    () => Intl.DateTimeFormat().resolvedOptions().timeZone,
    () => null,
  );
  if (zone === null) return null;
  return (
    <p className="muted" data-testid="browser-time-zone">
      {zone === current
        ? `This is also your browser's time zone.`
        : `Your browser is set to ${zone}: choose it below to see the console in your local time.`}
    </p>
  );
}
