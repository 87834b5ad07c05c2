#!/usr/bin/env bash
# Shared bring-up steps for `npm start` and `npm test`: install what is missing, start the
# private PostgreSQL and Redis under .data/ unless DATABASE_URL / REDIS_URL are given.
# Sourced: the caller's `set -e` applies.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DATA="${SLUICE_DATA_DIR:-$ROOT/.data}"
mkdir -p "$DATA"

# Each checkout has its own private PostgreSQL, on a port derived from its path (an even
# port in 30400-31398; the test cluster takes the next one): two checkouts never share one,
# so `npm run stop` in one never stops the other's. SLUICE_PG_PORT sets it explicitly. Below
# Linux's ephemeral ports (32768-60999): in that range a client connection's own port (a
# benchmark's, just before) was seen to hold it, and PostgreSQL failed to start.
default_pg_port() { echo $((30400 + $(printf '%s' "$ROOT" | cksum | cut -d' ' -f1) % 500 * 2)); }
PG_PORT="${SLUICE_PG_PORT:-$(default_pg_port)}"

# Set when the Redis found on our port belongs to another checkout (see below).
REDIS_SHARED=0
# Set when this run started the server itself (then a test or benchmark run stops it again).
PG_STARTED=0
REDIS_STARTED=0

# A short id of this installation, from its secret (NEXTAUTH_SECRET, which the demo keys are
# derived from): names its own Redis keys on another checkout's Redis. Not from
# the path: a new clone where an old one stood has a new secret, and the old demo data
# (made with the old one) would collide with it.
installation_id() { printf '%s' "$NEXTAUTH_SECRET" | sha256sum | cut -c1-8; }

say() { printf '\033[1;34m[sluice]\033[0m %s\n' "$*" >&2; }
die() { printf '\033[1;31m[sluice] %s\033[0m\n' "$*" >&2; exit 1; }

APT_UPDATED=0
apt_install() {
  # Installs Debian packages when running as root; otherwise says what is missing.
  if [ "$(id -u)" != 0 ]; then die "Missing $* and not root: install them with apt-get ($*)."; fi
  # Two checkouts setting up at once (or the system's own apt run) would fail on apt's lock:
  # ours are taken in turn (flock), anyone else's waited for (Lock::Timeout).
  local wait=(-o DPkg::Lock::Timeout=600)
  if [ "$APT_UPDATED" = 0 ]; then
    say "apt-get update"
    flock /tmp/sluice-apt.lock env DEBIAN_FRONTEND=noninteractive apt-get "${wait[@]}" update -qq >/dev/null
    APT_UPDATED=1
  fi
  say "installing $*"
  flock /tmp/sluice-apt.lock env DEBIAN_FRONTEND=noninteractive \
    apt-get "${wait[@]}" install -y -qq --no-install-recommends "$@" >/dev/null
}

pg_bindir() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }

ensure_system_packages() {
  local missing=()
  [ -n "${DATABASE_URL:-}" ] || [ -n "$(pg_bindir)" ] || missing+=(postgresql)
  command -v redis-server >/dev/null || missing+=(redis-server)
  command -v redis-cli >/dev/null || missing+=(redis-tools)
  for pkg in "$@"; do
    case "$pkg" in chromium) command -v chromium >/dev/null || missing+=(chromium) ;; h2load) command -v h2load >/dev/null || missing+=(nghttp2-client) ;; *) command -v "$pkg" >/dev/null || missing+=("$pkg") ;; esac
  done
  if [ "${#missing[@]}" -gt 0 ]; then apt_install "${missing[@]}"; fi
}

ensure_node_modules() {
  # Reinstall only when the lock file changed since the last install.
  local stamp="$ROOT/node_modules/.sluice-lock-hash" want
  want="$(sha256sum "$ROOT/package-lock.json" | cut -c1-64)"
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    say "installing npm packages"
    # npm install, not npm ci: npm 11 leaves other platforms' optional packages out of the
    # lock file here and npm ci then refuses it; install still follows the lock exactly.
    (cd "$ROOT" && npm install --no-audit --no-fund --loglevel=error >/dev/null) || die "npm install failed."
    echo "$want" > "$stamp"
  fi
  if [ ! -f "$ROOT/lib/generated/prisma/client.ts" ] || [ "$ROOT/prisma/schema.prisma" -nt "$ROOT/lib/generated/prisma/client.ts" ]; then
    say "generating the Prisma client"
    bash "$ROOT/scripts/prisma-generate.sh" >/dev/null
  fi
}

# Private PostgreSQL cluster under .data/pg (`npm start`: PostgreSQL's durable defaults) or
# .data/pg-test (tests: fsync off, a crash may lose it, it is recreated anyway), owned by a
# non-root user (PostgreSQL refuses root). $1 = durable|fast. Sets PG_PORT to its port.
start_private_postgres() {
  local mode="${1:-durable}" dir bin user port
  dir="$(pg_data_dir "$mode")"
  bin="$(pg_bindir)"; [ -n "$bin" ] || die "PostgreSQL binaries not found."
  user="$(id -un)"; [ "$user" = root ] && user=postgres
  id "$user" >/dev/null 2>&1 || die "User '$user' does not exist to run PostgreSQL."
  as_pg() { if [ "$(id -un)" = "$user" ]; then "$@"; else runuser -u "$user" -- "$@"; fi; }
  if [ ! -f "$dir/PG_VERSION" ]; then
    say "creating a private PostgreSQL cluster in $dir"
    mkdir -p "$dir"; chown "$user" "$dir"; chmod 700 "$dir"
    as_pg "$bin/initdb" -D "$dir" -U postgres --auth=trust -E UTF8 >/dev/null
  fi
  if as_pg "$bin/pg_ctl" -D "$dir" status >/dev/null 2>&1; then
    PG_PORT="$(sed -n 4p "$dir/postmaster.pid")" # ours, already running: on the port it has
    return 0
  fi
  port="$PG_PORT"; [ "$mode" = fast ] && port=$((PG_PORT + 1))
  # A port taken by a server that is not ours: never share it (its owner may stop it).
  while "$bin/pg_isready" -q -h 127.0.0.1 -p "$port"; do
    [ -z "${SLUICE_PG_PORT:-}" ] || die "127.0.0.1:$port already serves a PostgreSQL that this checkout did not start; set SLUICE_PG_PORT to a free port."
    port=$((port + 2))
  done
  local settings="-k /tmp -c listen_addresses=127.0.0.1 -c max_connections=200"
  [ "$mode" = fast ] && settings="$settings -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
  say "starting PostgreSQL on 127.0.0.1:$port ($dir)"
  local tries=0
  until as_pg "$bin/pg_ctl" -D "$dir" -l "$dir/server.log" -w -t 30 -o "-p $port $settings" start >/dev/null; do
    # the port held by something that is not a PostgreSQL (a client socket): the next one
    tries=$((tries + 1))
    if [ -n "${SLUICE_PG_PORT:-}" ] || [ "$tries" -ge 5 ] || ! tail -5 "$dir/server.log" | grep -q "Address already in use"; then
      die "PostgreSQL did not start; see $dir/server.log."
    fi
    say "127.0.0.1:$port is taken; starting PostgreSQL on 127.0.0.1:$((port + 2))"
    port=$((port + 2))
  done
  PG_PORT="$port"
  PG_STARTED=1
}

pg_data_dir() { if [ "${1:-durable}" = fast ]; then echo "$DATA/pg-test"; else echo "$DATA/pg"; fi; }

ensure_database() { # $1 = database name on the private cluster
  local bin; bin="$(pg_bindir)"
  if ! "$bin/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -tAc "select 1 from pg_database where datname='$1'" | grep -q 1; then
    "$bin/createdb" -h 127.0.0.1 -p "$PG_PORT" -U postgres "$1"
  fi
}

start_private_redis() { # $1 = port, $2 = name
  local port="$1" dir="$DATA/$2"
  mkdir -p "$dir"
  if redis-cli -p "$port" ping >/dev/null 2>&1; then
    # not the one this checkout started: another checkout's (the caller then prefixes its keys)
    if ! { [ -f "$dir/redis.pid" ] && kill -0 "$(cat "$dir/redis.pid")" 2>/dev/null; }; then REDIS_SHARED=1; fi
    return 0
  fi
  say "starting Redis on 127.0.0.1:$port"
  redis-server --port "$port" --bind 127.0.0.1 --daemonize yes --dir "$dir" \
    --pidfile "$dir/redis.pid" --logfile "$dir/redis.log" --save "" --appendonly no >/dev/null
  REDIS_STARTED=1
  for _ in $(seq 1 50); do redis-cli -p "$port" ping >/dev/null 2>&1 && return 0; sleep 0.1; done
  die "Redis did not start on port $port; see $dir/redis.log."
}

# A stable random secret kept under .data (created on first use).
data_secret() { # $1 = file name
  local file="$DATA/$1"
  [ -s "$file" ] || (umask 077; node -e 'process.stdout.write(require("crypto").randomBytes(32).toString("base64url"))' > "$file")
  cat "$file"
}

# Stops this checkout's own cluster ($1 = durable|fast), by its data directory: pg_ctl
# stops only the server of that directory, never one of another checkout's.
stop_private_postgres() {
  local dir; dir="$(pg_data_dir "${1:-durable}")"
  [ -f "$dir/postmaster.pid" ] || return 1
  local owner; owner="$(stat -c %U "$dir")"
  if [ "$(id -un)" = "$owner" ]; then "$(pg_bindir)/pg_ctl" -D "$dir" -m fast -w stop >/dev/null
  else runuser -u "$owner" -- "$(pg_bindir)/pg_ctl" -D "$dir" -m fast -w stop >/dev/null; fi
}

stop_private_redis() { # $1 = port, $2 = name: only the one whose pid file is ours
  local dir="$DATA/$2" pid
  [ -f "$dir/redis.pid" ] || return 0
  pid="$(cat "$dir/redis.pid")"
  redis-cli -p "$1" shutdown nosave >/dev/null 2>&1 || kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  rm -f "$dir/redis.pid"
}
