"use client";

import { createContext, useContext, type ReactNode } from "react";

// The signed-in user's time zone (account settings), given once by the dashboard layout so
// every chart and client-side date uses it without passing it through each page.

const TimeZoneContext = createContext<string>("UTC");

export function TimeZoneProvider({ zone, children }: { zone: string; children: ReactNode }) {
  return <TimeZoneContext.Provider value={zone}>{children}</TimeZoneContext.Provider>;
}

/** The reader's IANA time zone; UTC outside the dashboard. */
export function useTimeZone(): string {
  return useContext(TimeZoneContext);
}
