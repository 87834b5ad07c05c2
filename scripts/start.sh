#!/usr/bin/env bash
# `npm start`: install what is missing, bring up PostgreSQL and Redis (private ones under
# .data/ unless DATABASE_URL / REDIS_URL are given), migrate, seed, build when sources
# changed, and serve on $PORT.
source "$(dirname "$0")/lib/common.sh"
cd "$ROOT"

ensure_system_packages
ensure_node_modules

# The installation secret first: it signs sessions and derives the demo secrets, and the
# stores below are named after it when they belong to another checkout.
export NEXTAUTH_SECRET="${NEXTAUTH_SECRET:-$(data_secret nextauth-secret)}"
if [ -z "${DATABASE_URL:-}" ]; then
  start_private_postgres durable # this checkout's own, with PostgreSQL's durable defaults
  ensure_database sluice
  export DATABASE_URL="postgresql://postgres@127.0.0.1:$PG_PORT/sluice"
fi
if [ -z "${REDIS_URL:-}" ] && [ -z "${REDIS_CLUSTER_NODES:-}" ]; then
  start_private_redis 63799 redis
  export REDIS_URL="redis://127.0.0.1:63799"
  # Another checkout's Redis: keys of our own (published config, counters, usage).
  if [ "$REDIS_SHARED" = 1 ]; then export REDIS_PREFIX="${REDIS_PREFIX:-$(installation_id):}"; fi
fi
export PORT="${PORT:-3000}"
export NEXTAUTH_URL="${NEXTAUTH_URL:-http://localhost:$PORT}"
export SLUICE_ADMIN_EMAIL="${SLUICE_ADMIN_EMAIL:-admin@sluice.local}"
# A generated operator password is kept in .data/admin-password (mode 600) and printed once,
# when the operator is created; one from SLUICE_ADMIN_PASSWORD is never printed or stored.
SEED_ARGS=(--credentials "$DATA/credentials.txt")
if [ -z "${SLUICE_ADMIN_PASSWORD:-}" ]; then
  SLUICE_ADMIN_PASSWORD="$(data_secret admin-password)"; export SLUICE_ADMIN_PASSWORD
  SEED_ARGS+=(--admin-password-generated)
fi
export NODE_ENV=production

# One sentence, no stack trace, for bad settings or unreachable stores.
node --import tsx --import ./scripts/server-only-hook.mjs scripts/preflight.ts || exit 1
npm run --silent db:migrate || die "Migrations failed (see above)."
node --no-deprecation --import tsx --import ./scripts/server-only-hook.mjs prisma/seed.ts "${SEED_ARGS[@]}" || die "Seeding failed (see above)."
bash scripts/build-if-changed.sh || die "The build failed (see above)."

say "serving on http://localhost:$PORT — log in as $SLUICE_ADMIN_EMAIL; demo credentials in $DATA/credentials.txt"
echo $$ > "$DATA/app.pid"
# the front's V8 heap cap (a process cannot set its own; the app process gets SLUICE_APP_HEAP_MB),
# and no memory reducer: its idle-time mark-compact paused quiet checks 57 ms at 10,000 tenants
exec node --max-old-space-size="${SLUICE_FRONT_HEAP_MB:-512}" --no-memory-reducer --enable-source-maps .next/sluice/server.mjs
