#!/usr/bin/env bash
# `prisma generate` needs no database, but the CLI looks for a native schema engine first and
# cannot download one offline: any existing file satisfies that check.
set -euo pipefail
cd "$(dirname "$0")/.."
export PRISMA_SCHEMA_ENGINE_BINARY="${PRISMA_SCHEMA_ENGINE_BINARY:-/bin/true}"
export PRISMA_HIDE_UPDATE_MESSAGE=1 CHECKPOINT_DISABLE=1
exec npx --no-install prisma generate "$@"
