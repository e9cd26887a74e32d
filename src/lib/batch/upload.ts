/** Each id is printed as soon as its job exists, so `-o` gets it and a later failure never hides a started job. */
import type { Plan } from '../api/plan.js';
import { createBatch, createBatchPlan, type CreatedBatch } from '../api/batch.js';
import type { HttpClient } from '../http/client.js';
import type { Notices, Terminal } from '../io/terminal.js';
import {
  escapeControls,
  jsonText,
  openSink,
  printItem,
  printList,
  selectFields,
  type OutputSettings,
} from '../output/index.js';
import type { ColumnNames } from '../csv/detect.js';
import type { BatchPart, Extraction } from './extract.js';
import { multipartBody } from './multipart.js';
import { wireFields, type BatchJobOptions } from './options.js';
import { countText, plural } from '../words.js';

/** How messages name the input's column and a fresh job: the words of the command that took them (its flags). */
export interface BatchNames extends ColumnNames {
  force: string;
}

export function reportExtraction(
  notices: Notices,
  source: string,
  x: Extraction,
  named: Pick<BatchNames, 'column'>,
): void {
  const extra = [
    x.duplicates > 0 ? `${plural(x.duplicates, 'duplicate')} skipped` : '',
    x.blanks > 0 ? `${plural(x.blanks, 'blank')} removed` : '',
    x.parts.length > 1 ? `split into ${x.parts.length} batches of at most 10 MB` : '',
  ].filter(Boolean);
  if (x.guessedColumn)
    notices.warn(
      `No ${x.kind} column recognised in ${source}: using the first column, '${x.column}'. Name the right one with ${named.column}.`,
    );
  notices.notice(
    `Read ${plural(x.rows, x.kind === 'email' ? 'unique email' : 'unique handle')} from column '${x.column}' of ${source}${extra.length ? ` (${extra.join(', ')})` : ''}.`,
  );
}

export function uploadPlan(job: BatchJobOptions, parts: readonly BatchPart[]): Plan {
  return createBatchPlan({
    mode: job.mode,
    fields: wireFields(job),
    column: job.kind,
    rows: parts.reduce((n, p) => n + p.rows, 0),
    files: parts.length,
  });
}

export async function uploadPart(http: HttpClient, job: BatchJobOptions, path: string): Promise<CreatedBatch> {
  const body = await multipartBody(wireFields(job), {
    field: 'file',
    filename: 'batch.csv',
    contentType: 'text/csv',
    path,
  });
  return createBatch(http, body);
}

export interface UploadPorts {
  http(): Promise<HttpClient>;
  /** The money gate: `--max-credits`, the `--dry-run` plan, the confirmation. True when the plan may be sent. */
  gate(plan: Plan): Promise<boolean>;
  term: Terminal;
  output: OutputSettings;
  /** Told each job created, with its worst case: budgets hold it until the job is seen finished. */
  opened?: ((job: OpenedJob) => Promise<void>) | undefined;
}

export interface OpenedJob {
  id: string;
  worstMilli: number;
  platform?: string | undefined;
}

/** Creates one part's job and says so to `opened` before anything else can stop the run. */
export async function createPart(
  http: HttpClient,
  job: BatchJobOptions,
  part: BatchPart,
  opened: UploadPorts['opened'],
): Promise<CreatedBatch> {
  const created = await uploadPart(http, job, part.path);
  await opened?.({
    id: created.batch_id,
    worstMilli: uploadPlan(job, [part]).worstCaseMilli ?? 0,
    platform: job.platform,
  });
  return created;
}

/** Piped (or csv, tsv), only the ids, one per line, for `ID=$(creators batch upload ...)`. */
export async function uploadBatches(
  ports: UploadPorts,
  source: string,
  job: BatchJobOptions,
  extraction: Extraction,
  named: Pick<BatchNames, 'column'>,
): Promise<void> {
  const { term, output } = ports;
  reportExtraction(term, source, extraction, named);
  if (!(await ports.gate(uploadPlan(job, extraction.parts)))) return;
  const http = await ports.http();
  const created: CreatedBatch[] = [];
  const total = extraction.parts.length;
  // JSON only when asked for, not merely because stdout is a pipe: piped, the default is the bare ids.
  const asked = output.formatExplicit ? output.format : undefined;

  if (asked === 'json') {
    for (const part of extraction.parts) created.push(await createPart(http, job, part, ports.opened));
    if (created.length === 1) await printItem(term, output, created[0] as CreatedBatch);
    else await printList(term, output, created, []);
    return;
  }

  const toStdout = output.outputPath === undefined || output.outputPath === '' || output.outputPath === '-';
  const sentences = asked !== 'jsonl' && term.stdoutIsTTY && toStdout;
  const line = (batch: CreatedBatch, i: number, rows: number): string => {
    if (asked === 'jsonl') return `${jsonText(output.fields ? selectFields(batch, output.fields) : batch)}\n`;
    if (!sentences) return `${batch.batch_id}\n`;
    const of = total > 1 ? ` (part ${i + 1} of ${total})` : '';
    return escapeControls(`Batch ${batch.batch_id} created${of}: ${plural(rows, 'row')}, status ${batch.status}.\n`);
  };
  const sink = await openSink(term, output);
  try {
    for (const [i, part] of extraction.parts.entries()) {
      const batch = await createPart(http, job, part, ports.opened);
      created.push(batch);
      await sink.write(line(batch, i, part.rows));
    }
  } catch (err) {
    if (created.length === 0) {
      await sink.abort();
      throw err;
    }
    // The jobs already created run (and bill) whatever happens next: their ids must not be lost.
    await sink.commit();
    if (!toStdout)
      term.warn(
        `the upload stopped after ${countText(created.length)} of ${plural(total, 'batch', 'batches')}; ${output.outputPath} holds the ids of those created.`,
      );
    throw err;
  }
  await sink.commit();
  if (term.stdoutIsTTY && asked !== 'jsonl') {
    const first = String(created[0]?.batch_id ?? '');
    term.notice(`Follow it with: creators batch poll ${first}${created.length > 1 ? ' (and the other ids)' : ''}`);
  }
}
