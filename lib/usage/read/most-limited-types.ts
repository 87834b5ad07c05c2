// One line of the overview's "most limited" list (types only: the client table imports it).

export interface LimitedEntry {
  kind: "key" | "route" | "subject";
  /** tenant slug */
  tenant: string;
  /** what is shown: key name, route label ("(unmatched route)") or subject */
  name: string;
  /** what a link needs: key name, recorded route ("?", "" for none) or subject */
  id: string;
  /** decided checks; null for subjects (counted only when rejected) */
  checks: number | null;
  rejected: number;
  /** rejected / checks; null for subjects */
  rate: number | null;
}
