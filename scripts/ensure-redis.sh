#!/usr/bin/env bash
# Make sure a Redis server answers on 127.0.0.1:6379 (what test/helpers/redis-server.ts tries when TEST_REDIS_URL
# is unset). Idempotent: does nothing when one already answers; otherwise starts the Debian package's redis-server
# daemonized, loopback only, without persistence (the tests keep nothing worth saving). Installs the package when
# it is missing and apt-get is usable (CI machines; .ci/run runs apt-get update first when needed).
set -euo pipefail

PORT="${REDIS_TEST_PORT:-6379}"

answers() { command -v redis-cli >/dev/null 2>&1 && [ "$(redis-cli -h 127.0.0.1 -p "$PORT" ping 2>/dev/null)" = "PONG" ]; }

if answers; then
  echo "ensure-redis: Redis answers on 127.0.0.1:${PORT}"
  exit 0
fi

if ! command -v redis-server >/dev/null 2>&1; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  echo "ensure-redis: redis-server not found; installing the Debian package"
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y redis-server
fi

echo "ensure-redis: starting redis-server on 127.0.0.1:${PORT}"
redis-server --bind 127.0.0.1 --port "$PORT" --daemonize yes --save '' --appendonly no \
  --dir /tmp --logfile /tmp/modelgate-redis-${PORT}.log

for _ in $(seq 1 50); do
  if answers; then
    echo "ensure-redis: Redis answers on 127.0.0.1:${PORT}"
    exit 0
  fi
  sleep 0.1
done
echo "ensure-redis: redis-server did not answer on 127.0.0.1:${PORT} (see /tmp/modelgate-redis-${PORT}.log)" >&2
exit 1
