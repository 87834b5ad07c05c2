#!/usr/bin/env bash
# `npm run bench`: the same bring-up as `npm start` (packages, the private PostgreSQL unless
# DATABASE_URL is given), then the benchmark, which starts its own Redis and servers.
source "$(dirname "$0")/lib/common.sh"
cd "$ROOT"
# wrk is the main benchmark's load generator (h2load, Debian's nghttp2-client, for gRPC);
# the others (an argument names one) need none
if [ -z "${1:-}" ]; then ensure_system_packages wrk h2load; else ensure_system_packages; fi
ensure_node_modules
if [ -z "${DATABASE_URL:-}" ]; then
  start_private_postgres durable
  ensure_database sluice
  export DATABASE_URL="postgresql://postgres@127.0.0.1:$PG_PORT/sluice"
fi
# The private PostgreSQL stops again at the end when this run started it (also on Ctrl-C);
# SLUICE_KEEP_TEST_SERVERS=1 keeps it. The benchmark stops its own Redis and servers.
finish() {
  local status=$?
  trap - EXIT INT TERM
  if [ "$PG_STARTED" = 1 ] && [ "${SLUICE_KEEP_TEST_SERVERS:-0}" != 1 ]; then stop_private_postgres; fi
  exit "$status"
}
trap finish EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
# an argument names another benchmark that needs the database (npm run bench:usage-db)
node --import tsx "scripts/bench/${1:-index}.ts"
