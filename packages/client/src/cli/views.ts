// The server's answers as the CLI reads them, defined once here for every command. The
// package is built and published on its own (rootDir src, no path outside it), so it
// cannot import the server's types: these are kept to the fields the CLI uses, and
// docs/api.md (with the OpenAPI document the server serves) is the full contract. The
// server's repository checks each view against its response schema
// (tests/unit/cli/views-contract.test.ts): a new view or call is listed there too.

export interface Decision {
  allowed: boolean;
  reason?: string | null;
  tenant?: string | null;
  remaining?: number | null;
  retryAfterMs?: number | null;
  limits?: { name: string; limit: number; remaining: number | null; allowed: boolean }[];
}

export interface StateAnswer {
  limits: {
    name: string;
    level: string;
    limit: number;
    windowMs: number;
    remaining: number;
    wouldAllow: boolean;
    retryAfterMs: number | null;
  }[];
  skipped: { name: string; by: string; reason: string }[];
}

export interface ChangeItem {
  action: string;
  target: string;
  name: string;
}

export interface ImportAnswer {
  configVersion: number | null;
  changes: ChangeItem[];
  /** keys the import made, with their secrets (shown only in this answer); a dry run: names only */
  createdKeys?: { tenant: string; name: string; secret?: string }[];
  /** dry runs: the what-if replay of changed limits (docs/replay.md) */
  replay?: ReplayAnswer;
}

export interface ReplayAnswer {
  replays: {
    tenant: string;
    key: string | null;
    limit: string;
    route: string | null;
    result: {
      totals: { checks: number; currentRejected: number; proposedRejected: number };
      bounds: { truncated: boolean };
    };
  }[];
  leftOut: number;
}

export interface KeyRow {
  name: string;
  prefix: string;
  createdAt?: string;
  revokedAt?: string | null;
}

export interface OverrideRow {
  id: string;
  tenant: string;
  key: string | null;
  subject: string | null;
  limit: string;
  value: number | "disabled";
  startsAt: string;
  endsAt: string;
  state: string;
  reason: string;
}

export interface EndpointRow {
  id: string;
  name: string;
  url: string;
  format: string;
  secretPrefix: string;
  allowPrivate: boolean;
  createdAt: string;
  disabledAt: string | null;
}

export interface RuleRow {
  id: string;
  name: string;
  kind: string;
  limitName: string | null;
  keyName: string | null;
  route: string | null;
  thresholdPct: number | null;
  forSeconds: number;
  endpoint: string;
  disabledAt: string | null;
  firing?: boolean;
}

export interface DeliveryRow {
  id: string;
  event: string;
  rule: string;
  endpoint: string;
  status: string;
  attempts: number;
  responseCode: number | null;
  lastError: string | null;
  createdAt: string;
}

export interface KeyList {
  keys: KeyRow[];
}

/** a new key: its secret, shown once */
export interface CreatedKey {
  name: string;
  key: string;
  prefix: string;
}

export interface ResetAnswer {
  limit: string;
  deleted: number;
}

export interface OverrideList {
  overrides: OverrideRow[];
}

export interface EndpointList {
  endpoints: EndpointRow[];
}

/** a new endpoint: its signing secret, shown once */
export interface CreatedEndpoint {
  endpoint: EndpointRow;
  secret: string;
}

export interface RuleList {
  rules: RuleRow[];
}

export interface DeliveryList {
  deliveries: DeliveryRow[];
}
