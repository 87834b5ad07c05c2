#!/usr/bin/env bash
# Runs `next build` and bundles the custom server (scripts/build-server.mjs) only when the
# sources differ from the last successful build.
set -euo pipefail
cd "$(dirname "$0")/.."
stamp=".next/.sluice-source-hash"
hash="$(git ls-files -co --exclude-standard -- app components lib lua prisma/schema.prisma next.config.js package-lock.json tsconfig.json server.ts server-app.ts proxy.ts scripts/build-server.mjs 2>/dev/null \
  | grep -v '^lib/generated/' | sort | xargs -r sha256sum 2>/dev/null | sha256sum | cut -c1-64)"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$hash" ] && [ -f .next/BUILD_ID ] && [ -f .next/sluice/server.mjs ] && [ -f .next/sluice/server-app.mjs ] && [ -f .next/sluice/document-worker.mjs ]; then
  echo "[sluice] build is up to date" >&2; exit 0
fi
echo "[sluice] building the app (next build)" >&2
NEXT_TELEMETRY_DISABLED=1 npx --no-install next build > .data/build.log 2>&1 || { tail -40 .data/build.log >&2; exit 1; }
node scripts/build-server.mjs || exit 1
echo "$hash" > "$stamp"
