"use client";

import { useSyncExternalStore } from "react";

const never = (): (() => void) => () => undefined;

/**
 * False in the server's HTML and until React has hydrated this component, true after.
 * Forms disable their submit button and editors stay read-only until then: before
 * hydration a submit is the browser's own (a GET that would put a password in the URL),
 * and React resets a textarea's text when it hydrates, so early typing would be lost or
 * doubled.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
