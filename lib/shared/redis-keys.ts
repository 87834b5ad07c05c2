// Names of the Redis keys and channels that carry the published configuration. The counters'
// own keys are built in lib/limiter/keys.ts under a per-tenant hash tag.

export interface ConfigKeys {
  /** the current version number (string integer) */
  version: string;
  /** the compiled snapshot of that version (JSON) */
  snapshot: string;
  /** pub/sub channel announcing a new version */
  channel: string;
}

export function configKeys(prefix: string): ConfigKeys {
  // One hash tag, so both keys live in one slot on a cluster and can be written in one MULTI.
  return {
    version: `${prefix}{sluice:config}:version`,
    snapshot: `${prefix}{sluice:config}:snapshot`,
    channel: `${prefix}sluice:config:changed`,
  };
}
