// The baseline of the one-request figures: a bare node:http script making the request `creators credits
// --json` makes (GET with the bearer key) and printing the same JSON. No CLI, no undici, no config.
// `node bench/credits-bare.mjs <path>` makes that GET instead (`dict languages`' route).
// node:http without an ESM import: on Node 22 and later an ESM import of it builds a facade of all its
// exports, Node's own undici included (~30 ms of CPU here), which the CLI does not pay either
// (scripts/build.mjs builtinsViaRequire); the baseline is the cheapest script that does the job.
const { request } = process.getBuiltinModule('node:http');

const base = new URL(process.env.CREATORS_BASE_URL);
const req = request(
  new URL(process.argv[2] ?? '/public/v1/accounts/credits/', base),
  { headers: { authorization: `Bearer ${process.env.CREATORS_API_KEY}`, accept: 'application/json' } },
  (res) => {
    let body = '';
    res.setEncoding('utf8');
    res.on('data', (c) => (body += c));
    res.on('end', () => {
      process.stdout.write(`${JSON.stringify(JSON.parse(body), null, 2)}\n`);
    });
  },
);
req.end();
