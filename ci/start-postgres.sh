#!/usr/bin/env bash
# Start the local PostgreSQL cluster when it is not accepting connections. Idempotent.
set -euo pipefail
host=${PGHOST:-127.0.0.1}
port=${PGPORT:-5432}
if command -v pg_isready >/dev/null 2>&1 && pg_isready -q -h "$host" -p "$port"; then
  exit 0
fi
if ! command -v pg_ctlcluster >/dev/null 2>&1; then
  echo "start-postgres: PostgreSQL is not installed; installing it" >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
fi
version=$(ls /etc/postgresql | sort -V | tail -n 1)
pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
for _ in $(seq 1 30); do
  if pg_isready -q -h "$host" -p "$port"; then
    exit 0
  fi
  sleep 1
done
echo "start-postgres: PostgreSQL did not start on $host:$port" >&2
exit 1
