// What a usage view shows, in words: the page heading and its browser title say which
// tenant, key and route the charts are narrowed to (isomorphic, no React).

export interface UsageFilter {
  tenant: string;
  key: string | null;
  route: string | null;
}

export function usageHeading(view: UsageFilter): string {
  const parts = [`Usage of ${view.tenant}`];
  if (view.key) parts.push(`key ${view.key}`);
  if (view.route) parts.push(`route ${view.route}`);
  return parts.join(" · ");
}
