import "server-only";
import type { ConfigBackstop } from "@/lib/check/config-holder";
import { latestPublished } from "@/lib/control/data/config-versions";
import { republishIfBehind } from "@/lib/control/data/reconcile";

/** What a check front falls back on when Redis lost the configuration: PostgreSQL. */
export const configBackstop: ConfigBackstop = {
  latest: latestPublished,
  republish: republishIfBehind,
};
