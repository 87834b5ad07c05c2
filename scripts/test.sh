#!/usr/bin/env bash
# `npm test`: the same bring-up as `npm start`, against separate test stores (database
# sluice_test, Redis on 63809, a 3-master cluster on 63811-63813), then every suite.
# Ends with "N passed, N failed" over all suites; exits non-zero on any failure.
source "$(dirname "$0")/lib/common.sh"
cd "$ROOT"
REPORTS="$DATA/test-reports"
rm -rf "$REPORTS"; mkdir -p "$REPORTS"

ensure_system_packages chromium
ensure_node_modules

if [ -z "${DATABASE_URL:-}" ]; then
  start_private_postgres
  export DATABASE_URL="postgresql://postgres@127.0.0.1:$PG_PORT/sluice_test"
else
  # Never the demo database: the test database is the given one's name + _test.
  export DATABASE_URL="$(node -e 'const u=new URL(process.argv[1]);u.pathname=u.pathname.replace(/_test$/,"")+"_test";console.log(u.href)' "$DATABASE_URL")"
fi
node scripts/test/reset-database.mjs || die "Could not create a fresh test database."
if [ -z "${REDIS_URL:-}" ]; then
  TEST_REDIS_PORT="${SLUICE_TEST_REDIS_PORT:-63809}"
  start_private_redis "$TEST_REDIS_PORT" redis-test
  export REDIS_URL="redis://127.0.0.1:$TEST_REDIS_PORT"
fi
redis-cli -u "$REDIS_URL" flushall >/dev/null
export NODE_ENV=test
export NEXTAUTH_SECRET="${NEXTAUTH_SECRET:-test-secret-test-secret-test-secret-0}"
export SLUICE_BOOTSTRAP_TOKEN="${SLUICE_BOOTSTRAP_TOKEN:-test-bootstrap-token-000000000000}"
export SLUICE_ADMIN_EMAIL="admin@sluice.test" SLUICE_ADMIN_PASSWORD="test-admin-password"

node --import tsx --import ./scripts/server-only-hook.mjs scripts/preflight.ts || exit 1
npm run --silent db:migrate >/dev/null || die "Migrations failed."
node --no-deprecation --import tsx --import ./scripts/server-only-hook.mjs prisma/seed.ts > "$REPORTS/seed.log" || die "Seeding failed; see $REPORTS/seed.log."

bash scripts/test/run-suites.sh "$REPORTS"
