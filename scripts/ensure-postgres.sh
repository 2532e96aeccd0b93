#!/usr/bin/env bash
# Make sure the local PostgreSQL 15 cluster is running and reachable over the unix socket as role `root`,
# which is what test/helpers/databases.ts tries when TEST_DATABASE_URL is unset. Idempotent: prints what it
# changed and exits 0 when everything was already in place.
set -euo pipefail

VERSION="${PG_CLUSTER_VERSION:-15}"
CLUSTER="${PG_CLUSTER_NAME:-main}"
ROLE="${PG_TEST_ROLE:-root}"

if ! command -v pg_lsclusters >/dev/null 2>&1; then
  echo "ensure-postgres: pg_lsclusters not found; install postgresql-${VERSION} (postgresql-common) first" >&2
  exit 1
fi

# Run a command as the postgres OS user whether we are root or postgres already.
as_postgres() {
  if [ "$(id -un)" = "postgres" ]; then "$@"; else su postgres -c "$(printf '%q ' "$@")"; fi
}

status="$(pg_lsclusters --no-header | awk -v v="$VERSION" -v c="$CLUSTER" '$1 == v && $2 == c { print $4 }')"
if [ -z "$status" ]; then
  echo "ensure-postgres: cluster ${VERSION}/${CLUSTER} does not exist (pg_lsclusters shows no such cluster)" >&2
  exit 1
fi
case "$status" in online*) ;; *)
  echo "ensure-postgres: cluster ${VERSION}/${CLUSTER} is ${status}; starting it"
  pg_ctlcluster "$VERSION" "$CLUSTER" start
  ;;
esac

# Wait briefly for the socket to accept connections (start returns before recovery finishes on slow disks).
for _ in $(seq 1 50); do
  if as_postgres psql -XAtq -d postgres -c 'select 1' >/dev/null 2>&1; then break; fi
  sleep 0.1
done

role_exists="$(as_postgres psql -XAtq -d postgres -c "select 1 from pg_roles where rolname = '${ROLE}'")"
if [ "$role_exists" != "1" ]; then
  echo "ensure-postgres: creating superuser role ${ROLE}"
  as_postgres createuser -s "$ROLE"
fi

db_exists="$(as_postgres psql -XAtq -d postgres -c "select 1 from pg_database where datname = '${ROLE}'")"
if [ "$db_exists" != "1" ]; then
  echo "ensure-postgres: creating database ${ROLE} owned by ${ROLE}"
  as_postgres createdb -O "$ROLE" "$ROLE"
fi

echo "ensure-postgres: PostgreSQL ${VERSION}/${CLUSTER} is up; role and database '${ROLE}' exist"
