// A TCP proxy between a PostgreSQL client and its server that counts the client's round trips by reading the
// frontend protocol: each simple Query ('Q') is one, each Sync ('S') ends one of the extended protocol. Messages
// are a type byte and a 4-byte length (the length counts itself); the first message of a connection has no type
// byte (startup, SSLRequest, GSSENCRequest, CancelRequest). An SSL or GSS request is answered 'N' here, so the
// conversation stays readable (the bench's servers are on loopback). CREATORS_BENCH_PG_DEBUG=1 prints every
// counted statement on stderr.
import { createServer, connect } from 'node:net';
import { once } from 'node:events';

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;

/** Starts the proxy in front of `target` (host, port); returns its port, the counts so far, and `close`. */
/** `target`: a URL (or {hostname, port}) of the server. */
export async function startPgProxy(target, { debug = process.env.CREATORS_BENCH_PG_DEBUG === '1', label = 'pg' } = {}) {
  const counts = { trips: 0, queries: 0, syncs: 0, connections: 0 };
  const sockets = new Set();
  const server = createServer((client) => {
    counts.connections++;
    const upstream = connect(Number(target.port), target.hostname);
    sockets.add(client);
    sockets.add(upstream);
    let buf = Buffer.alloc(0);
    let started = false;
    // The statements parsed since the last Sync (for the debug line).
    let parsed = [];
    const parse = () => {
      for (;;) {
        if (!started) {
          if (buf.length < 8) return;
          const len = buf.readInt32BE(0);
          if (buf.length < len) return;
          const code = buf.readInt32BE(4);
          if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
            client.write('N');
          } else {
            upstream.write(buf.subarray(0, len));
            started = true;
          }
          buf = buf.subarray(len);
          continue;
        }
        if (buf.length < 5) return;
        const len = buf.readInt32BE(1);
        if (buf.length < 1 + len) return;
        const type = String.fromCharCode(buf[0]);
        const msg = buf.subarray(0, 1 + len);
        if (type === 'Q') {
          counts.trips++;
          counts.queries++;
          if (debug)
            process.stderr.write(
              `[${label} trip ${counts.trips}] Q ${oneLine(msg.subarray(5, msg.length - 1).toString('utf8'))}\n`,
            );
        } else if (type === 'S') {
          counts.trips++;
          counts.syncs++;
          if (debug)
            process.stderr.write(
              `[${label} trip ${counts.trips}] Sync after ${parsed.length === 0 ? 'Bind/Execute of a prepared statement' : parsed.join(' | ')}\n`,
            );
          parsed = [];
        } else if (type === 'P' && debug) {
          const body = msg.subarray(5);
          const nameEnd = body.indexOf(0);
          parsed.push(`Parse ${oneLine(body.subarray(nameEnd + 1, body.indexOf(0, nameEnd + 1)).toString('utf8'))}`);
        }
        upstream.write(msg);
        buf = buf.subarray(1 + len);
      }
    };
    client.on('data', (chunk) => {
      buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk]);
      parse();
    });
    upstream.on('data', (chunk) => client.write(chunk));
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    for (const s of [client, upstream]) {
      s.on('end', end);
      s.on('close', end);
      s.on('error', end);
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: server.address().port,
    counts,
    /** `url` (a postgres:// URL of the target) pointed at the proxy. */
    via(url) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(server.address().port);
      return u.href;
    },
    reset() {
      Object.assign(counts, { trips: 0, queries: 0, syncs: 0, connections: 0 });
    },
    async close() {
      for (const s of sockets) s.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}

function oneLine(sql) {
  const s = sql.replace(/\s+/g, ' ').trim();
  return s.length > 400 ? `${s.slice(0, 400)}...` : s;
}
