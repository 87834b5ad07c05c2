// Redis layout of the check endpoint's health summaries. One hash per minute, one field per
// front process; every key carries the {h} tag, so a reader's pipeline of an hour of minutes
// stays in one slot on a Redis Cluster.
//
//   <prefix>{h}:m:<minute>  HASH  <front id> -> JSON HealthFigures of that minute (health-figures.ts)

/** Minutes a summary is kept: the console shows the last hour. */
export const HEALTH_KEEP_MINUTES = 120;

export function healthMinuteKey(prefix: string, minute: number): string {
  return `${prefix}{h}:m:${minute}`;
}
