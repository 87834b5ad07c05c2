// Wall-clock milliseconds for the check path without Date.now(): in the server process
// Next.js wraps Date.now to watch prerenders for clock reads (two AsyncLocalStorage lookups
// per call). performance.now() is not wrapped; its offset from the wall clock is taken
// again every second, so a clock adjustment shows within a second, as with Date.now.

let offset = Date.now() - performance.now();
let takenAt = performance.now();

export function wallNow(): number {
  const now = performance.now();
  if (now - takenAt >= 1_000) {
    offset = Date.now() - now;
    takenAt = now;
  }
  return Math.floor(offset + now);
}
