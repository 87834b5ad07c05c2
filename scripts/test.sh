#!/usr/bin/env bash
# `npm test`: the same bring-up as `npm start`, against separate test stores (database
# sluice_test, Redis on 63809, a 3-master cluster on 63811-63813), then every suite.
# Ends with "N passed, N failed" over all suites; exits non-zero on any failure.
# Every server it starts listens on 127.0.0.1 only and is stopped when the run ends, also on
# a failure or Ctrl-C; SLUICE_KEEP_TEST_SERVERS=1 keeps the test PostgreSQL, Redis and
# cluster running for a faster next run (`npm run stop` stops them). Servers it found
# running (another checkout's, or given by DATABASE_URL / REDIS_URL) are left alone.
source "$(dirname "$0")/lib/common.sh"
cd "$ROOT"
REPORTS="$DATA/test-reports"
rm -rf "$REPORTS"; mkdir -p "$REPORTS"
KEEP="${SLUICE_KEEP_TEST_SERVERS:-0}"
export SLUICE_LISTEN_HOST=127.0.0.1 # the apps this run starts (also the tests' own)

ensure_system_packages chromium haproxy redis-sentinel # haproxy: deploys suite; redis-sentinel: reliability suite
ensure_node_modules

# Test servers must listen on loopback only and not outlive the run: what of this checkout
# listens before the run, then a watcher for anything of it listening beyond loopback while
# the run goes on; both are checked by teardown.
node scripts/test/listeners.mjs snapshot "$REPORTS/listeners-before.json"
node scripts/test/listeners.mjs watch "$REPORTS/listeners-beyond-loopback.txt" &
WATCHER=$!
SUITES_RAN=0
teardown() {
  local status=$?
  set +e
  trap - EXIT INT TERM
  kill "$WATCHER" 2>/dev/null; wait "$WATCHER" 2>/dev/null
  if [ "$KEEP" != 1 ]; then
    [ "$REDIS_STARTED" = 1 ] && stop_private_redis "$TEST_REDIS_PORT" redis-test
    [ "$PG_STARTED" = 1 ] && stop_private_postgres fast
  fi
  printf '\n\033[1;34m== %s ==\033[0m\n' "servers on loopback only, stopped at the end"
  if node scripts/test/listeners.mjs check-during "$REPORTS/listeners-beyond-loopback.txt"; then
    echo "loopback-only pass" >> "$REPORTS/checks.txt"
  else echo "loopback-only fail" >> "$REPORTS/checks.txt"; fi
  if [ "$KEEP" != 1 ]; then
    if node scripts/test/listeners.mjs check-after "$REPORTS/listeners-before.json"; then
      echo "servers-stopped pass" >> "$REPORTS/checks.txt"
    else echo "servers-stopped fail" >> "$REPORTS/checks.txt"; fi
  else say "SLUICE_KEEP_TEST_SERVERS=1: the test servers keep running (npm run stop stops them)"; fi
  if [ "$SUITES_RAN" = 1 ]; then node scripts/test/summarize.mjs "$REPORTS"; status=$?; fi
  exit "$status"
}
trap teardown EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if [ -z "${DATABASE_URL:-}" ]; then
  start_private_postgres fast # a test cluster of its own (.data/pg-test), fsync off
  export DATABASE_URL="postgresql://postgres@127.0.0.1:$PG_PORT/sluice_test"
else
  # Never the demo database: the test database is the given one's name + _test.
  export DATABASE_URL="$(node -e 'const u=new URL(process.argv[1]);u.pathname=u.pathname.replace(/_test$/,"")+"_test";console.log(u.href)' "$DATABASE_URL")"
fi
node scripts/test/reset-database.mjs || die "Could not create a fresh test database."
TEST_REDIS_PORT="${SLUICE_TEST_REDIS_PORT:-63809}"
if [ -z "${REDIS_URL:-}" ]; then
  start_private_redis "$TEST_REDIS_PORT" redis-test
  export REDIS_URL="redis://127.0.0.1:$TEST_REDIS_PORT"
fi
redis-cli -u "$REDIS_URL" flushall >/dev/null
export NODE_ENV=test
export NEXTAUTH_SECRET="${NEXTAUTH_SECRET:-test-secret-test-secret-test-secret-0}"
export SLUICE_BOOTSTRAP_TOKEN="${SLUICE_BOOTSTRAP_TOKEN:-test-bootstrap-token-000000000000}"
export SLUICE_ADMIN_EMAIL="admin@sluice.test" SLUICE_ADMIN_PASSWORD="test-admin-password"
# usage fixtures of past days keep their key x route minutes while the apps' rollup sweeps
export SLUICE_USAGE_PAIR_MINUTES_RETENTION="${SLUICE_USAGE_PAIR_MINUTES_RETENTION:-604800}"
# Alerts evaluated every second and retried quickly, so their tests wait seconds, not minutes.
export SLUICE_ALERT_EVAL_MS="${SLUICE_ALERT_EVAL_MS:-1000}" SLUICE_ALERT_RETRY_BASE_MS="${SLUICE_ALERT_RETRY_BASE_MS:-300}"

node --import tsx --import ./scripts/server-only-hook.mjs scripts/preflight.ts || exit 1
npm run --silent db:migrate >/dev/null || die "Migrations failed."
node --no-deprecation --import tsx --import ./scripts/server-only-hook.mjs prisma/seed.ts --without-service-limits > "$REPORTS/seed.log" || die "Seeding failed; see $REPORTS/seed.log."

# The totals are printed by teardown, after the servers stopped and the checks above ran.
SUITES_RAN=1
SLUICE_DEFER_SUMMARY=1 bash scripts/test/run-suites.sh "$REPORTS"
