#!/usr/bin/env bash
# `npm run stop`: stops what `npm start` / `npm test` started under .data/ (never a system service).
source "$(dirname "$0")/lib/common.sh"
for pidfile in "$DATA"/app.pid "$DATA"/test-app*.pid; do
  [ -f "$pidfile" ] || continue
  pid="$(cat "$pidfile")"; kill "$pid" 2>/dev/null && say "stopped the app ($pid)"; rm -f "$pidfile"
done
for dir in "$DATA"/redis*; do
  [ -f "$dir/redis.pid" ] || continue
  pid="$(cat "$dir/redis.pid")"; kill "$pid" 2>/dev/null && say "stopped Redis ($dir)"; rm -f "$dir/redis.pid"
done
[ -x "$ROOT/scripts/redis-cluster.sh" ] && [ -d "$DATA/cluster" ] && bash "$ROOT/scripts/redis-cluster.sh" stop "$DATA/cluster" "${SLUICE_TEST_CLUSTER_PORT:-63811}" >/dev/null 2>&1 || true
# This checkout's own clusters only (by data directory; never another checkout's or a system one).
stop_private_postgres durable && say "stopped PostgreSQL ($DATA/pg)"
stop_private_postgres fast && say "stopped the test PostgreSQL ($DATA/pg-test)"
exit 0
