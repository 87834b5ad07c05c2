"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

// Re-reads the server-rendered page now and then (the delivery log changes on its own).
export function AutoRefresh({ everyMs }: { everyMs: number }) {
  const router = useRouter();
  useEffect(() => {
    const timer = setInterval(() => router.refresh(), everyMs);
    return () => clearInterval(timer);
  }, [router, everyMs]);
  return null;
}
