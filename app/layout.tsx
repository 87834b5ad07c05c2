import type { Metadata } from "next";
import type { ReactNode } from "react";
import "./globals.css";
import "./console.css";

// Every page renders per request: the CSP nonce (proxy.ts) is new each time, and a page
// prerendered at build time would carry scripts without it.
export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: { default: "Sluice", template: "%s · Sluice" },
  description: "Multi-tenant rate limiting",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
