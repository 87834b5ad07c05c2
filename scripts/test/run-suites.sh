#!/usr/bin/env bash
# Runs every suite, keeps going past failures, and prints the totals as the last line.
# Expects the environment prepared by scripts/test.sh. $1 = report folder.
set -uo pipefail
REPORTS="$1"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
DATA="${SLUICE_DATA_DIR:-$ROOT/.data}"
# Ports are settable so that several checkouts can test side by side on one machine.
APP_PORT="${SLUICE_TEST_APP_PORT:-3100}"
CLUSTER_PORT="${SLUICE_TEST_CLUSTER_PORT:-63811}"
APP_PORTS=("$APP_PORT" "$((APP_PORT + 1))")
# each app's gRPC ShouldRateLimit port (docs/envoy.md): this one and the next
GRPC_PORT="${SLUICE_TEST_GRPC_PORT:-3150}"

# SLUICE_TEST_SUITES (comma list: typecheck,lint,build,unit,integration,cluster,reliability,deploys,e2e; default all)
# runs a subset; SLUICE_TEST_FILES (space-separated paths) narrows vitest and Playwright to them.
SUITES=",${SLUICE_TEST_SUITES:-typecheck,lint,build,unit,integration,cluster,reliability,deploys,e2e},"
wants() { [[ "$SUITES" == *",$1,"* ]]; }
read -r -a FILES <<< "${SLUICE_TEST_FILES:-}"
banner() { printf '\n\033[1;34m== %s ==\033[0m\n' "$*"; }
record() { echo "$1 $2" >> "$REPORTS/checks.txt"; } # name pass|fail
expect() { echo "$1 ${2:-vitest}" >> "$REPORTS/expected.txt"; } # a suite whose report must exist
# Each suite's wall time, printed by summarize.mjs above the totals: "name start_ms end_ms".
began() { SUITE_START="$(date +%s%3N)"; }
took() { echo "$1 $SUITE_START $(date +%s%3N)" >> "$REPORTS/times.txt"; }

stop_apps() {
  local pid
  for port in "${APP_PORTS[@]}"; do
    if [ -f "$DATA/test-app-$port.pid" ]; then
      pid="$(cat "$DATA/test-app-$port.pid")"
      kill "$pid" 2>/dev/null
      for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    fi
    rm -f "$DATA/test-app-$port.pid"
  done
}
# The cluster only when this run started it (SLUICE_KEEP_TEST_SERVERS=1 keeps it).
CLUSTER_STARTED=0
stop_servers() {
  stop_apps
  if [ "$CLUSTER_STARTED" = 1 ] && [ "${SLUICE_KEEP_TEST_SERVERS:-0}" != 1 ]; then
    bash scripts/redis-cluster.sh stop "$DATA/cluster" "$CLUSTER_PORT" >/dev/null 2>&1
    CLUSTER_STARTED=0
  fi
}
trap stop_servers EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if wants typecheck; then
  banner typecheck
  began
  if npx --no-install tsc --noEmit -p .; then record typecheck pass; else record typecheck fail; fi
  took typecheck
fi

if wants lint; then
  banner lint
  began
  # formatting is part of lint: `npm run format` fixes what prettier --check reports; the
  # folder boundaries of lib/ (.dependency-cruiser.cjs) too
  if npx --no-install eslint . --max-warnings 0 && npm run --silent lint:deps && npx --no-install prettier --check . --log-level warn; then
    record lint pass
  else record lint fail; fi
  took lint
fi

NEEDS_APPS=0
if wants integration || wants cluster || wants e2e; then NEEDS_APPS=1; fi
if wants build; then
  banner build
  began
  if bash scripts/build-if-changed.sh; then record build pass; else record build fail; fi
  took build
elif [ "$NEEDS_APPS" = 1 ] || wants deploys; then
  bash scripts/build-if-changed.sh >/dev/null || echo "build failed; the apps may not start"
fi
if ! wants unit && ! wants integration && ! wants cluster && ! wants reliability && ! wants deploys && ! wants e2e; then
  [ "${SLUICE_DEFER_SUMMARY:-0}" = 1 ] && exit 0
  node scripts/test/summarize.mjs "$REPORTS"; exit $?
fi

if [ "$NEEDS_APPS" = 1 ]; then
  banner "start two app processes"
  for i in "${!APP_PORTS[@]}"; do
    port="${APP_PORTS[$i]}"
    PORT=$port SLUICE_GRPC_PORT=$((GRPC_PORT + i)) NODE_ENV=production NEXTAUTH_URL="http://localhost:$port" \
      node --enable-source-maps .next/sluice/server.mjs > "$REPORTS/app-$port.log" 2>&1 &
    echo $! > "$DATA/test-app-$port.pid"
  done
  export APP_URL="http://localhost:${APP_PORTS[0]}" APP_URL_2="http://localhost:${APP_PORTS[1]}"
  export GRPC_ADDRESS="127.0.0.1:$GRPC_PORT" GRPC_ADDRESS_2="127.0.0.1:$((GRPC_PORT + 1))"
  for port in "${APP_PORTS[@]}"; do
    for _ in $(seq 1 100); do curl -fs "http://localhost:$port/api/health" >/dev/null && break; sleep 0.2; done
  done
  if curl -fs "$APP_URL/api/health" >/dev/null && curl -fs "$APP_URL_2/api/health" >/dev/null; then record app-start pass
  else record app-start fail; tail -20 "$REPORTS"/app-*.log; fi
fi

if wants unit; then
  banner "unit tests"
  expect unit
  began
  npx --no-install vitest run --project unit "${FILES[@]}" --reporter=default --reporter=json --outputFile.json="$REPORTS/unit.json"
  took unit
fi

if wants integration; then
  banner "integration tests (single Redis, real PostgreSQL, the running app)"
  expect integration
  began
  npx --no-install vitest run --project integration "${FILES[@]}" --reporter=default --reporter=json --outputFile.json="$REPORTS/integration.json"
  took integration
fi

if wants cluster; then
banner "integration tests on a 3-master Redis Cluster (limiter, usage recording and rollup)"
began
redis-cli -p "$CLUSTER_PORT" ping >/dev/null 2>&1 || CLUSTER_STARTED=1
if bash scripts/redis-cluster.sh start "$DATA/cluster" "$CLUSTER_PORT" > "$REPORTS/cluster.log" 2>&1; then
  expect cluster
  REDIS_CLUSTER_NODES="127.0.0.1:$CLUSTER_PORT,127.0.0.1:$((CLUSTER_PORT + 1)),127.0.0.1:$((CLUSTER_PORT + 2))" \
    npx --no-install vitest run --project integration tests/integration/limiter tests/integration/usage/recorder-rollup.test.ts \
      tests/integration/usage/pair-layout.test.ts \
    --reporter=default --reporter=json --outputFile.json="$REPORTS/cluster.json"
else
  record cluster-start fail; cat "$REPORTS/cluster.log"
fi
took cluster

fi

if wants reliability; then
  # Throwaway Sentinel group, Redis Cluster and PostgreSQL on ports from SLUICE_TEST_HA_PORT
  # (default 63870, ~20 ports), each with an app process of its own (the build above).
  [ "$NEEDS_APPS" = 1 ] || bash scripts/build-if-changed.sh >/dev/null || echo "build failed; the apps may not start"
  banner "reliability tests (Redis failover, PostgreSQL down; figures printed)"
  expect reliability
  began
  npx --no-install vitest run --project reliability "${FILES[@]}" --reporter=default --reporter=json --outputFile.json="$REPORTS/reliability.json"
  took reliability
fi

if wants deploys; then
  # Its own instances (built server) and HAProxy on SLUICE_TEST_LB_PORT (default 3190) and up.
  banner "deploys: rolling restarts behind HAProxy, check workers, graceful shutdown"
  expect deploys
  began
  npx --no-install vitest run --project deploys "${FILES[@]}" --reporter=default --reporter=json --outputFile.json="$REPORTS/deploys.json"
  took deploys
fi

if wants e2e; then
  banner "end-to-end tests (Playwright, Chromium)"
  expect e2e playwright
  began
  PLAYWRIGHT_JSON_OUTPUT_NAME="$REPORTS/e2e.json" npx --no-install playwright test "${FILES[@]}" --reporter=list,json
  took e2e
fi

stop_servers
# scripts/test.sh prints the totals itself once its own servers are stopped and checked.
[ "${SLUICE_DEFER_SUMMARY:-0}" = 1 ] && exit 0
node scripts/test/summarize.mjs "$REPORTS"
