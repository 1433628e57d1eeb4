#!/usr/bin/env bash
# Make the PostgreSQL server the tests use ready on this machine. Idempotent.
#
#   1. start the local cluster when it is not accepting connections (installing PostgreSQL
#      first when it is missing; PGCLUSTER=version/name picks a cluster, default newest/main);
#   2. make the test URL work: MEMORY_TEST_DATABASE_URL, default
#      postgresql://postgres@127.0.0.1:5432/test (PGHOST/PGPORT change the default's host and
#      port). When it does not connect, as the database superuser (the postgres OS user over
#      the local socket, or the URL's host as user postgres) create its role and database if
#      missing and, for a loopback host, let its user in without a password (a trust line for
#      that database and user only, prepended to pg_hba.conf), then check again.
#
# A setup that already works (e.g. trust on 127.0.0.1 and the database present) is left as is.
set -euo pipefail

url=${MEMORY_TEST_DATABASE_URL:-postgresql://postgres@${PGHOST:-127.0.0.1}:${PGPORT:-5432}/test}
# host, port, user, database of the URL; "+psycopg" dropped for psql.
read -r host port user dbname libpq_url < <(
  python3 - "$url" <<'PY'
import sys
from urllib.parse import urlsplit, unquote

url = sys.argv[1]
parts = urlsplit(url)
scheme = parts.scheme.split("+", 1)[0]
if scheme not in ("postgresql", "postgres"):
    sys.exit(f"start-postgres: {url!r} is not a postgresql:// URL")
host = parts.hostname or "127.0.0.1"
port = parts.port or 5432
user = unquote(parts.username or "postgres")
dbname = unquote(parts.path.lstrip("/")) or user
print(host, port, user, dbname, parts._replace(scheme=scheme).geturl())
PY
)

log() { echo "start-postgres: $*" >&2; }

connects() {
  psql -X -w -Atq -d "$libpq_url" -c 'SELECT 1' >/dev/null 2>&1
}

start_cluster() {
  if pg_isready -q -h "$host" -p "$port" 2>/dev/null; then
    return 0
  fi
  if ! command -v pg_ctlcluster >/dev/null 2>&1; then
    log "PostgreSQL is not installed; installing it"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  fi
  local version name
  if [[ -n "${PGCLUSTER:-}" ]]; then
    version=${PGCLUSTER%%/*}
    name=${PGCLUSTER#*/}
  else
    version=$(ls /etc/postgresql | sort -V | tail -n 1)
    name=main
  fi
  pg_ctlcluster --skip-systemctl-redirect "$version" "$name" start || true
  for _ in $(seq 1 30); do
    if pg_isready -q -h "$host" -p "$port"; then
      return 0
    fi
    sleep 1
  done
  log "PostgreSQL did not start on $host:$port"
  exit 1
}

# Run SQL as the database superuser; prints the rows (unaligned, tuples only).
superuser_sql() {
  if [[ $(id -u) -eq 0 ]] && id postgres >/dev/null 2>&1; then
    runuser -u postgres -- psql -X -w -Atq -p "$port" -d postgres -v ON_ERROR_STOP=1 -c "$1"
  else
    psql -X -w -Atq -h "$host" -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 -c "$1"
  fi
}

sql_literal() { printf "'%s'" "${1//\'/\'\'}"; }
sql_ident() { printf '"%s"' "${1//\"/\"\"}"; }

ensure_role_and_database() {
  if [[ -z $(superuser_sql "SELECT 1 FROM pg_roles WHERE rolname = $(sql_literal "$user")") ]]; then
    log "creating role $user"
    superuser_sql "CREATE ROLE $(sql_ident "$user") LOGIN" >/dev/null
  fi
  if [[ -z $(superuser_sql "SELECT 1 FROM pg_database WHERE datname = $(sql_literal "$dbname")") ]]; then
    log "creating database $dbname (owner $user)"
    superuser_sql "CREATE DATABASE $(sql_ident "$dbname") OWNER $(sql_ident "$user")" >/dev/null
  fi
}

trust_loopback() {
  case "$host" in
    127.0.0.1 | localhost | ::1) ;;
    *) return 0 ;;
  esac
  local hba rule
  hba=$(superuser_sql 'SHOW hba_file')
  rule="host $dbname $user 127.0.0.1/32 trust"
  if ! grep -qxF "$rule" "$hba"; then
    log "letting $user into $dbname from 127.0.0.1/::1 without a password ($hba)"
    { printf '%s\nhost %s %s ::1/128 trust\n' "$rule" "$dbname" "$user"; cat "$hba"; } >"$hba.new"
    chown --reference="$hba" "$hba.new"
    chmod --reference="$hba" "$hba.new"
    mv "$hba.new" "$hba"
    superuser_sql 'SELECT pg_reload_conf()' >/dev/null
    sleep 1
  fi
}

start_cluster
if connects; then
  exit 0
fi
ensure_role_and_database
if ! connects; then
  trust_loopback
fi
if connects; then
  log "ready: $user@$host:$port/$dbname"
  exit 0
fi
log "cannot connect to $user@$host:$port/$dbname; check pg_hba.conf and the URL"
psql -X -w -Atq -d "$libpq_url" -c 'SELECT 1' >&2 || true
exit 1
