#!/usr/bin/env bash
# A local 3-master Redis Cluster for tests: scripts/redis-cluster.sh start|stop <dir> <basePort>
# start: runs redis-server on basePort..basePort+2 (no persistence), creates the cluster once
#        and waits for cluster_state:ok; running it again changes nothing.
# stop:  shuts the three servers down.
# Then: REDIS_CLUSTER_NODES=127.0.0.1:<basePort>,127.0.0.1:<basePort+1>,127.0.0.1:<basePort+2>
set -euo pipefail

usage() { echo "usage: $0 start|stop <dir> <basePort>" >&2; exit 2; }
[ $# -eq 3 ] || usage
action=$1 dir=$2 base=$3
[[ "$base" =~ ^[0-9]+$ ]] && [ "$base" -ge 1024 ] && [ "$base" -le 65533 ] || { echo "basePort must be 1024..65533" >&2; exit 2; }
ports=("$base" "$((base + 1))" "$((base + 2))")

up() { redis-cli -p "$1" ping >/dev/null 2>&1; }
# The cluster bus defaults to port + 10000, impossible above 55535: then use port - 10000.
bus() { if [ "$1" -le 55535 ]; then echo $(($1 + 10000)); else echo $(($1 - 10000)); fi; }

start() {
  mkdir -p "$dir"
  for port in "${ports[@]}"; do
    up "$port" && continue
    mkdir -p "$dir/$port"
    # loopback only: the cluster bus listens on the same addresses as the port
    redis-server --port "$port" --bind 127.0.0.1 --cluster-port "$(bus "$port")" --cluster-enabled yes --cluster-config-file "$dir/$port/nodes.conf" \
      --dir "$dir/$port" --daemonize yes --save '' --appendonly no \
      --pidfile "$dir/$port/redis.pid" --logfile "$dir/$port/redis.log"
  done
  for port in "${ports[@]}"; do
    for _ in $(seq 100); do up "$port" && break; sleep 0.1; done
    up "$port" || { echo "redis-server on $port did not start (see $dir/$port/redis.log)" >&2; exit 1; }
  done
  # create only when no slot is assigned yet (a second start finds the cluster made)
  if [ "$(redis-cli -p "$base" cluster info | tr -d '\r' | awk -F: '/cluster_slots_assigned/ {print $2}')" = "0" ]; then
    redis-cli --cluster create "${ports[@]/#/127.0.0.1:}" --cluster-replicas 0 --cluster-yes >/dev/null
  fi
  for _ in $(seq 200); do
    ok=1
    for port in "${ports[@]}"; do
      redis-cli -p "$port" cluster info | grep -q 'cluster_state:ok' || ok=0
    done
    [ $ok = 1 ] && { echo "cluster ok: 127.0.0.1:${ports[0]},127.0.0.1:${ports[1]},127.0.0.1:${ports[2]}"; return 0; }
    sleep 0.1
  done
  echo "cluster did not reach cluster_state:ok" >&2
  exit 1
}

stop() {
  for port in "${ports[@]}"; do
    up "$port" && redis-cli -p "$port" shutdown nosave >/dev/null 2>&1 || true
  done
  for port in "${ports[@]}"; do
    for _ in $(seq 50); do up "$port" || break; sleep 0.1; done
  done
  # the cluster's node ids live in nodes.conf: without data they must go too
  for port in "${ports[@]}"; do rm -f "$dir/$port/nodes.conf"; done
}

case "$action" in
  start) start ;;
  stop) stop ;;
  *) usage ;;
esac
