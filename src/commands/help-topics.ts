import { AUDIENCE_KEYS, CREATOR_HAS_KEYS, FILTER_CATALOGUE } from '../contract/filter-catalogue.js';
import { DISCOVERY_PLATFORMS } from '../contract/platforms.js';

function wrapped(words: readonly string[], indent: string): string {
  const lines: string[] = [];
  let line = indent;
  for (const w of words) {
    if (line.length + w.length + 1 > 80 && line.trim() !== '') {
      lines.push(line.trimEnd());
      line = indent;
    }
    line += `${w} `;
  }
  lines.push(line.trimEnd());
  return lines.join('\n');
}

/** `creators help filters`: the catalogue the CLI checks --filter/--filters keys against. */
function filtersTopic(): string {
  const everywhere = [...FILTER_CATALOGUE.instagram]
    .filter((k) => DISCOVERY_PLATFORMS.every((p) => FILTER_CATALOGUE[p].has(k)))
    .sort();
  const own = DISCOVERY_PLATFORMS.map(
    (p) => `  ${p}:\n${wrapped([...FILTER_CATALOGUE[p]].filter((k) => !everywhere.includes(k)).sort(), '    ')}`,
  );
  return `Discovery filter keys (search, similar: --filter, --filters)

A key the chosen platform does not have is refused before anything is sent (exit 2):
the service ignores it silently, so the run would buy unfiltered results.
--unchecked-filters sends such keys anyway (for a key the service added since).
Values are checked to every level the same way: ranges take min and max
(number_of_followers.min=10000), growths growth_percentage and time_range_months,
lists values (location=Germany,France), flags true or false.

Every platform:
${wrapped(everywhere, '  ')}

Per platform:
${own.join('\n')}

audience (instagram): ${AUDIENCE_KEYS.join(', ')}
creator_has: ${CREATOR_HAS_KEYS.length} keys; only true has an effect for has_personal_website:
${wrapped(CREATOR_HAS_KEYS, '  ')}
`;
}

/** The `creators help <topic>` pages (loaded only by `creators help`). Scripts rely on the exit codes: changing one is a breaking change. */
export const HELP_TOPICS: Record<string, string> = {
  'exit-codes': `Exit codes

  0    success
  1    other error (network, server, unexpected, a response that is not the
       expected JSON, a failed write of the output)
  2    usage error: bad flags, bad input file, a prompt needed without a terminal
  3    partial success: some rows or items failed, the rest were written
  4    not authenticated, credential rejected (401), login failed, or a proxy
       refused its credentials (407)
  5    credits: balance exhausted, batch paused for credits, daily Discovery limit,
       or the --max-credits guard refused to start
  6    rate-limited or Discovery fair-use cap reached, and waiting was not possible
       or not allowed
  7    remote job failed
  8    still pending when --max-wait ran out
  9    busy: another run holds the same cursor file or batch journal entry;
       nothing was done
  130  interrupted (Ctrl-C)

With --json, --format json/jsonl or CREATORS_FORMAT=json/jsonl, errors are one JSON
object on stderr (a pipe alone keeps them as text):
  {"error":{"code":"...","message":"...","status":401,"retry_after":null}}
plus "hint" when there is one, "maybe_charged": true when a billable request
failed after it may have been processed, and "spent": {"credits", "kept"} when a
billable command stopped part-way (in text, the line "Spent ... credits in this
run; ..." says the same).
`,
  environment: `Environment variables

  CREATORS_BASE_URL      API origin (default https://api-dashboard.influencers.club)
  CREATORS_API_KEY       bearer credential; a leading "Bearer " is stripped
                         (not visible to other users, unlike --api-key)
  CREATORS_PROFILE       profile name (default "default")
  CREATORS_FORMAT        default output format: table, json, jsonl, csv, tsv
  CREATORS_MAX_CREDITS   refuse commands whose worst-case cost is higher
  CREATORS_DEBUG=1       log HTTP traffic to stderr (secrets redacted)
  CREATORS_CONFIG_DIR    directory of config.json (default $XDG_CONFIG_HOME/creators)
  CREATORS_RATE_LIMIT    requests per minute this process stays under (default 300)
  CREATORS_PAGE_BASE     first Discovery page number on the wire: 0 (default) or 1
  CREATORS_MAX_RESPONSE_MB
                         largest JSON response read, in MB (default 64); larger
                         ones fail (response_too_large); downloads are not capped
  CREATORS_STORE         the store file (default <config dir>/store/<profile>.db; a
                         relative path is from the current folder), or a team store's
                         postgres:// (or postgresql://) URL; any other scheme, quotes
                         or a path that is not a regular file (a device, a FIFO, a
                         link) is refused (exit 2); creators store path prints it
  PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE, PGPASSFILE
                         a team store's connection, for what its URL leaves out (as
                         psql reads them); the password is never printed
  CREATORS_MAX_AGE       reuse answers bought within this (14d, 24h; 0 buys fresh)
  CREATORS_STORE_BUSY_TIMEOUT
                         seconds to wait for another process's hold on the store
                         (default 10); past it, exit 9
  CREATORS_STORE_CLAIM_WAIT
                         seconds to wait for another live run buying the same record
                         (default 120); past it, exit 9 and nothing is bought
  CREATORS_PAGER         pager for long output on a terminal (before the profile's
                         pager setting and PAGER); empty or cat: no pager
  PAGER                  pager when neither CREATORS_PAGER nor the setting names one
                         (default less -FRX; LESS=FRX is set when LESS is unset);
                         not used when TERM=dumb
  TERM                   dumb: no colour, no cursor movement (no spinner frames, progress
                         as whole lines), and no pager but CREATORS_PAGER or the setting
  XDG_CONFIG_HOME        base of the config directory (default ~/.config)
  NO_COLOR               no ANSI colour
  LC_ALL, LC_CTYPE, LANG the first one set must name UTF-8 for Unicode tables, cards,
                         charts and spinners; otherwise ASCII, and ASCII when none is
                         set (Windows: Unicode when none is set); see help formatting
  HTTPS_PROXY, HTTP_PROXY, NO_PROXY
                         proxy settings as curl reads them: lower case first;
                         NO_PROXY takes hosts, domains, IPs and CIDR ranges

Precedence: command-line flag > environment > profile setting > default.
The credential: --api-key > --api-key-file > CREATORS_API_KEY > the profile's
login or api-key.

--api-key <key> on the command line is visible to every user of this machine
(ps, /proc/<pid>/cmdline). CREATORS_API_KEY and --api-key-file <path|-> (a file,
or standard input for -) are not: printf %s "$KEY" | creators --api-key-file - ...
A key with a line break (CR, LF) or a non-ASCII character is refused (exit 2).
`,
  formatting: `Output formats (--format, or --json, or the extension of -o)

  table  readable columns on a terminal (numbers humanised, long text cut to the
         width; ids, handles and keys never cut: columns that do not fit are left
         out, named on stderr, and --fields picks others). Piped with --format
         table: tab-separated rows, no header, nothing quoted (tabs and line
         breaks in values become spaces). One creator (enrich handle|email,
         socials with one value) is a card on a terminal: profile, contact,
         metrics, platforms, audience, sponsors and lookalikes, each when the
         record has them; --fields gives key/value rows instead. Charts where
         a picture says more: the card's audience (bars with percentages,
         credibility histogram, growth sparkline), overlap (unique against
         overlapping), campaigns overview (7-day trend sparklines of whole
         days, the day still running apart, top posts); machine formats never.
  json   the API's records; a list command prints one JSON array.
  jsonl  one JSON record per line, streamed.
         Bulk runs (enrich handle|email, socials with --input) write each row as
         {"input": {...}, "result", "credits_cost", "status", "error"}: input
         holds every input column under its own name, in input order.
  csv    RFC 4180 (csv-stringify), header row first; nested objects become
         dot-path columns (profile.username); a list of plain values is joined
         with "; ", or is its JSON array when an item holds "; " or an object.
  tsv    csv with a tab delimiter and the same quoting: a CSV reader given a tab
         delimiter reads it back exactly.

Default: table when stdout is a terminal, json otherwise.
For spreadsheets (csv and tsv only; off by default, so machine output is exact):
  --csv-safe  a cell starting with = + - @ tab or CR gets a leading ' so it is
              not run as a formula (OWASP); negative numbers are left alone
  --bom       a UTF-8 byte order mark first, so Excel reads the file as UTF-8
  Both are also profile settings: creators config set csv-safe true
  --no-csv-safe, --no-bom turn the setting off for one run.
--fields a,b.c keeps those dot paths, in that order, in every format.
-o file writes to a temporary file next to it and renames it when complete, so a
failed or interrupted run never leaves a half-written file. A device, FIFO or
/dev/fd/N (/dev/null, a named pipe, >(cmd)) is written through, never replaced.
Data goes to stdout; progress, notices, warnings and errors go to stderr.
On a terminal, data (any format, JSON too, as gh does) goes through a pager:
$CREATORS_PAGER, the profile's pager setting, $PAGER, else less -FRX (which
quits at once when the output fits the screen). Never to a pipe or with -o, nor
on a dumb terminal (TERM=dumb) unless CREATORS_PAGER or the setting names one; off
with --no-pager, CREATORS_PAGER= (empty) or creators config set pager false.

One drawing rule for tables, cards, charts and spinners: Unicode when the
locale's character set is UTF-8 (the first of LC_ALL, LC_CTYPE, LANG that is
set); ASCII (+--+ borders, ..., # bars, a -\\|/ spinner) when it is not, and on
Linux and macOS when none is set (cron, Docker, CI); Unicode on Windows when
none is set. TERM=dumb: no cursor movement (no spinner frames, progress as
whole lines), no colour, and no pager unless one is named (above).

Times in tables, cards and event lines are shown in your time zone (TZ) with
the zone named: 2026-11-24 09:13 UTC, 2026-11-24 04:13 EST, or an offset such as
GMT+2 where the zone has no short name. Machine formats keep the API's value.

Text meant for a person (tables, cards, event lines, notices, errors) shows
control characters from data as visible escapes (\\x1b, \\u009b, \\r) and never
prints a credential; json, jsonl, csv and tsv keep the data exactly (JSON also
writes C1 controls as \\u0080...).
`,
  filters: filtersTopic(),
};
