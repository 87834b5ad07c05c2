import { encodeKeyPart, limitKeyPrefix } from "@/lib/check/limiter/keys";
import type { LimitSpec } from "@/lib/check/limiter/types";
import type { Algorithm } from "@/lib/shared/limit-types";
import {
  CODE_FIXED_WINDOW,
  CODE_SLIDING_WINDOW,
  CODE_TOKEN_BUCKET,
  type LocalCode,
} from "@/lib/check/limiter/local/local-algorithms";

// Where a local limit's converged state lives in Redis: a hash under the tenant's hash tag,
// the limit's key prefix (so a counter reset of the limit finds it) and its identity, named
// by algorithm so that another algorithm's state is never read after a change.

const CODES: Partial<Record<Algorithm, LocalCode>> = {
  fixed_window: CODE_FIXED_WINDOW,
  sliding_window: CODE_SLIDING_WINDOW,
  token_bucket: CODE_TOKEN_BUCKET,
};

/** The algorithm's code when it can be counted locally, else undefined. */
export function localCodeOf(algorithm: Algorithm): LocalCode | undefined {
  return CODES[algorithm];
}

export function localCounterKey(spec: LimitSpec, code: LocalCode): string {
  return `${limitKeyPrefix(spec.tenantId, spec.id)}${encodeKeyPart(spec.identity)}:lc${code}`;
}
