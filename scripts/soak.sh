#!/usr/bin/env bash
# `npm run soak` (not part of npm test): packages and node modules as for `npm start`, then
# the soak (scripts/soak/index.ts), which starts and stops its own Redis, PostgreSQL and server.
# SOAK_MINUTES (default 10) sets its length. `npm run soak:faults` (argument "faults"): the
# soak on a Redis Cluster with a primary killed twice and the CPU saturated for a minute
# (scripts/soak/faults/index.ts).
source "$(dirname "$0")/lib/common.sh"
cd "$ROOT"
ensure_system_packages wrk
ensure_node_modules
if [ "${1:-}" = faults ]; then node --import tsx scripts/soak/faults/index.ts
else node --import tsx scripts/soak/index.ts; fi
