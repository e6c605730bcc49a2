#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster (the machine's initdb/pg_ctl) in a temp dir on a free port,
# runs the given command with TEST_DATABASE_URL pointing at it, and always stops and removes it.
set -euo pipefail
PGBIN="${PGBIN:-$(dirname "$(command -v pg_ctl || echo /usr/local/bin/pg_ctl)")}"
[ -x "$PGBIN/pg_ctl" ] || { echo "no pg_ctl found (set PGBIN)"; exit 1; }

tmp="$(mktemp -d)"
chmod 755 "$tmp"
pgdata="$tmp/pgdata"
port="$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"

as_pg() {
  # PostgreSQL refuses to run as root: use the unprivileged postgres user then.
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
if [ "$(id -u)" = 0 ]; then
  id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
  mkdir -p "$pgdata" && chown postgres "$pgdata"
fi

cleanup() {
  as_pg "$PGBIN/pg_ctl" stop -D "$pgdata" -m fast -w >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT

as_pg "$PGBIN/initdb" -D "$pgdata" -U postgres -A trust --encoding=UTF8 --locale=C >/dev/null
as_pg "$PGBIN/pg_ctl" start -D "$pgdata" -w -s -l "$pgdata/server.log" \
  -o "-p $port -c listen_addresses=127.0.0.1 -c unix_socket_directories=$pgdata -c max_connections=200"
echo "== $("$PGBIN/postgres" --version) on port $port"

TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres" "$@"
