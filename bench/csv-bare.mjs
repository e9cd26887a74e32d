// Benchmark baseline: a bare csv-parse -> csv-stringify stream pipeline (arrays), file to file.
// Usage: node csv-bare.js <in.csv> <out.csv>
import { createReadStream, createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { parse } from 'csv-parse';
import { stringify } from 'csv-stringify';

const [input, output] = process.argv.slice(2);
await pipeline(createReadStream(input), parse(), stringify(), createWriteStream(output));
