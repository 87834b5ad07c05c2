#!/usr/bin/env bash
# `npm run bench`: the same bring-up as `npm start` (packages, the private PostgreSQL unless
# DATABASE_URL is given), then the benchmark, which starts its own Redis and servers.
source "$(dirname "$0")/lib/common.sh"
cd "$ROOT"
ensure_system_packages wrk
ensure_node_modules
if [ -z "${DATABASE_URL:-}" ]; then
  start_private_postgres
  ensure_database sluice
fi
exec node --import tsx scripts/bench/index.ts
