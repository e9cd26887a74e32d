#!/usr/bin/env bash
# A throwaway PgBouncer in front of a test PostgreSQL (scripts/pg-test-server.sh), as teams run it: a stock
# configuration in transaction pooling (startup parameters such as `options` refused, no session state kept
# between transactions, no prepared statements carried over).
#   scripts/pgbouncer-test-server.sh start DIR POSTGRES_URL   start on a free loopback port, print its URL
#   scripts/pgbouncer-test-server.sh stop DIR                 stop it and remove DIR
# Every database of the server is reachable through it (the `*` fallback), so a database a test creates on
# the server directly is reachable through the bouncer by the same name. Every role too: the bouncer reads a
# role's SCRAM secret from the server (auth_query, as the URL's user, a superuser) and logs in to the server
# with the client's own proof, so a test's role needs no entry anywhere. As root it runs as `postgres`, like
# the server. Needs Debian's `pgbouncer` package.
set -euo pipefail
cmd=${1:?start|stop}
dir=${2:?directory}

bouncer() {
  local b
  b=$(command -v pgbouncer 2>/dev/null || true)
  [ -z "$b" ] && [ -x /usr/sbin/pgbouncer ] && b=/usr/sbin/pgbouncer
  [ -n "$b" ] || { echo "pgbouncer-test-server: pgbouncer not found (apt-get install pgbouncer)" >&2; exit 1; }
  echo "$b"
}

as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "$cmd" in
  start)
    url=${3:?postgres URL (an admin of the server, as scripts/pg-test-server.sh prints)}
    bin=$(bouncer)
    # The URL's parts, decoded (a password may hold %-escapes).
    parts=$(node -e '
      const u = new URL(process.argv[1]);
      const d = decodeURIComponent;
      process.stdout.write([u.hostname || "127.0.0.1", u.port || "5432", d(u.username), d(u.password)].join("\n"));
    ' "$url")
    { read -r host; read -r pgport; read -r user; read -r password; } <<<"$parts"
    [ -n "$user" ] && [ -n "$password" ] || { echo "pgbouncer-test-server: the URL needs a user and a password" >&2; exit 1; }
    mkdir -p "$dir"
    chmod 700 "$dir"
    port=$(node -e "const s=require('node:net').createServer().listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})")
    # The auth file holds only the auth_query user; quotes doubled as the file's format wants.
    printf '"%s" "%s"\n' "${user//\"/\"\"}" "${password//\"/\"\"}" > "$dir/userlist.txt"
    chmod 600 "$dir/userlist.txt"
    cat > "$dir/pgbouncer.ini" <<EOF
[databases]
* = host=$host port=$pgport

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $port
unix_socket_dir =
logfile = $dir/pgbouncer.log
pidfile = $dir/pgbouncer.pid
auth_type = scram-sha-256
auth_file = $dir/userlist.txt
auth_user = $user
pool_mode = transaction
max_client_conn = 400
default_pool_size = 40
EOF
    [ "$(id -u)" = 0 ] && chown -R postgres "$dir"
    as_owner "$bin" -d -q "$dir/pgbouncer.ini" >"$dir/start.log" 2>&1 \
      || { cat "$dir/start.log" "$dir/pgbouncer.log" >&2 2>/dev/null; exit 1; }
    # Listening once a connection is accepted (a few tenths of a second).
    node -e '
      const net = require("node:net");
      const port = Number(process.argv[1]);
      const until = Date.now() + 10000;
      (function attempt() {
        const s = net.connect(port, "127.0.0.1", () => { s.end(); process.exit(0); });
        s.on("error", () => { if (Date.now() > until) process.exit(1); setTimeout(attempt, 50); });
      })();
    ' "$port" || { echo "pgbouncer-test-server: PgBouncer did not listen on 127.0.0.1:$port" >&2; cat "$dir/pgbouncer.log" >&2 2>/dev/null; exit 1; }
    node -e '
      const u = new URL(process.argv[1]);
      u.hostname = "127.0.0.1";
      u.port = process.argv[2];
      process.stdout.write(u.href + "\n");
    ' "$url" "$port"
    ;;
  stop)
    if [ -f "$dir/pgbouncer.pid" ]; then
      pid=$(cat "$dir/pgbouncer.pid")
      if kill "$pid" 2>/dev/null; then
        for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      fi
    fi
    rm -rf "$dir"
    ;;
  *) echo "usage: $0 start DIR POSTGRES_URL | stop DIR" >&2; exit 2 ;;
esac
