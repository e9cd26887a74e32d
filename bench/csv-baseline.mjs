// Baseline of the csv bench: csv-parse into csv-stringify over the same file, the same result columns added
// to each row with fixed values, and nothing else (no store, no counting pass, no ordering). Usage: node csv-baseline.mjs <in.csv> <out.csv>
import { createReadStream, createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import { parse } from 'csv-parse';
import { stringify } from 'csv-stringify';

const [input, output] = process.argv.slice(2);
let header = true;
await pipeline(
  createReadStream(input),
  parse({ bom: true, relax_column_count: false }),
  new Transform({
    objectMode: true,
    transform(row, _enc, done) {
      if (header) {
        header = false;
        return done(null, [
          ...row,
          'status',
          'error',
          'credits_cost',
          'source',
          'result.instagram.username',
          'result.instagram.userid',
          'result.instagram.full_name',
          'result.instagram.follower_count',
          'result.instagram.engagement_percent',
          'result.email',
        ]);
      }
      done(null, [...row, 'ok', '', '0.03', 'api', row[0], '1234567', 'Some Creator', '12345', '2.5', '']);
    },
  }),
  stringify(),
  createWriteStream(output),
);
