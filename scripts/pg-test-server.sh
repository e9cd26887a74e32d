#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests and the bench (never a user's server).
#   scripts/pg-test-server.sh start DIR   initdb in DIR, start on a free loopback port, print its URL
#   scripts/pg-test-server.sh stop DIR    stop it (fast) and remove DIR
# Password authentication (scram-sha-256), so the tests of wrong credentials and password files mean
# something. initdb refuses to run as root: as root the cluster belongs to the `postgres` user that
# Debian's package creates. Needs Debian's `postgresql` package (or initdb/pg_ctl on PATH).
set -euo pipefail
cmd=${1:?start|stop}
dir=${2:?directory}

bindir() {
  local d
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -n "$d" ] && [ -x "$d/initdb" ]; then echo "$d"; return; fi
  command -v initdb >/dev/null 2>&1 && dirname "$(command -v initdb)" && return
  echo "pg-test-server: initdb not found (apt-get install postgresql)" >&2
  exit 1
}

as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "$cmd" in
  start)
    bin=$(bindir)
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    chmod 700 "$dir"
    password=$(node -e "process.stdout.write(require('node:crypto').randomBytes(12).toString('hex'))")
    printf '%s\n' "$password" > "$dir/pwfile"
    [ "$(id -u)" = 0 ] && chown postgres "$dir/pwfile"
    as_owner "$bin/initdb" -D "$dir/data" -A scram-sha-256 -U postgres --pwfile="$dir/pwfile" >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; exit 1; }
    rm -f "$dir/pwfile"
    port=$(node -e "const s=require('node:net').createServer().listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})")
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off" start >/dev/null \
      || { cat "$dir/log" >&2; exit 1; }
    echo "postgres://postgres:$password@127.0.0.1:$port/postgres"
    ;;
  stop)
    bin=$(bindir)
    if [ -d "$dir/data" ]; then as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true; fi
    rm -rf "$dir"
    ;;
  *) echo "usage: $0 start|stop DIR" >&2; exit 2 ;;
esac
