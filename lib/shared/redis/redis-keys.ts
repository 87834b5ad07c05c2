// Names of the Redis keys and channels that carry the published configuration. The counters'
// own keys are built in lib/check/limiter/keys.ts under a per-tenant hash tag.

export interface ConfigKeys {
  /** the watermark: every config version up to it has been applied (string integer) */
  version: string;
  /** scope -> JSON of the part (lib/config/parts/) */
  parts: string;
  /** scope -> the version that last wrote it */
  partVersions: string;
  /** the change log, newest first: "<seq> <scope>..." */
  log: string;
  /** the publish sequence (one per publish) */
  seq: string;
  /** versions applied above the watermark (zset) */
  ahead: string;
  /** changes when a whole configuration is installed: servers then reload everything */
  epoch: string;
  /** pub/sub channel announcing a publish */
  channel: string;
}

export function configKeys(prefix: string): ConfigKeys {
  // One hash tag, so every key lives in one slot on a cluster and one script can touch them all.
  const key = (name: string): string => `${prefix}{sluice:config}:${name}`;
  return {
    version: key("version"),
    parts: key("parts"),
    partVersions: key("part-versions"),
    log: key("log"),
    seq: key("seq"),
    ahead: key("ahead"),
    epoch: key("epoch"),
    channel: `${prefix}sluice:config:changed`,
  };
}

/** The keys publish-parts.lua and publish-whole.lua take, in their order. */
export function publishKeys(keys: ConfigKeys): string[] {
  return [keys.version, keys.parts, keys.partVersions, keys.log, keys.seq, keys.ahead, keys.epoch];
}

/** A staging hash beside the configuration (same slot), for a whole publish written in chunks. */
export const stagingKey = (prefix: string, id: string): string => `${prefix}{sluice:config}:staging:${id}`;
