--[[ check.lua: every limit of one check, decided and consumed in one atomic step.

Loaded as one script: lua/common.lua, then lua/algorithms/*.lua (each registers ALG[code]),
lua/run-check.lua (the decision itself, shared with check-many.lua), then this file (lib/check/limiter/script.ts concatenates them; the SHA is of the whole text).

KEYS[i], i = 1..n   state key of limit i: its owner's key (limits of one owner share it) or
                    its sliding log; all of one check share the hash tag {t:<tenant>}
ARGV[1]             cost: units this check consumes, integer >= 1
ARGV[2]             dryRun: 1 = decide and report exactly as the check would be, store nothing
ARGV[3]             now override in ms, test-only virtual clock (-1 = Redis TIME; see
                    lib/check/limiter/clock.ts for how production code is kept from sending it)
ARGV[4 + 7*(i-1) ..] seven values per limit i:
                    algorithm (1 fixed_window, 2 sliding_log, 3 sliding_window,
                               4 token_bucket, 5 leaky_bucket, 6 gcra, 7 concurrency,
                               8 calendar),
                    L (limit), W (window ms), B (burst; L where it does not apply;
                    calendar: W and B are the period's start and end, epoch ms),
                    shadow (1 = mode shadow), maxDelay (ms; -1 = action reject),
                    entry (8 characters: the limit's counter among its owner's, common.lua;
                    longer when the limit has a penalty: run-check.lua's R_PEN)
ARGV[4 + 7*n]       the check's lease id (decimal digits), when it has a concurrency limit
                    (lua/algorithms/concurrency.lua)

Reply: an array of integers: { allowed (0|1: every enforce limit admits), nowMs,
  then six integers per limit i:
    status (0 rate_limited, 1 admits on its own, 2 cost_exceeds_capacity,
            3 penalty: blocked, or this denial starts a block; retryAfterMs is its end),
    consumed (0|1: this check consumes the limit's units; also reported on dryRun),
    remaining, resetMs, retryAfterMs (-1 = none or never), waitMs }

All-or-nothing: enforce limits consume only when every enforce limit admits; a shadow limit
consumes when it alone admits and never blocks, except a shadow sliding_log, which (like
every log) records only checks that are admitted. A denied limit never writes.
]]

local now, slack = call_clock(tonumber(ARGV[3]))
local n = #KEYS
state_prefetch(KEYS)
local rules = {}
for i = 1, n do rules[i] = read_rule(3 + RULE_ARGS * (i - 1)) end
local reply = {}
run_check(n, KEYS, rules, tonumber(ARGV[1]), ARGV[2] == '1', now, slack, reply, 0, ARGV[4 + RULE_ARGS * n])
flush_states(now, slack)
return reply
