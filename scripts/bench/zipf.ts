// A Zipf draw (s = 1) over ranks 1..n, by binary search of the cumulative weights: rank 1
// the most frequent. The bench's in-process tools draw the realistic mix with it (wrk draws
// the same distribution in Lua, realistic-mix.ts).
export function zipf(n: number): () => number {
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) cdf[i] = sum += 1 / (i + 1);
  return () => {
    const u = Math.random() * sum;
    let [lo, hi] = [0, n - 1];
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cdf[mid] as number) < u) lo = mid + 1;
      else hi = mid;
    }
    return lo + 1;
  };
}
