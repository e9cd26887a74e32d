/**
 * `batch run`: upload, wait, download, for cron and CI. The journal entry of this input and these options
 * is locked for the run and records each create before it is sent, so a re-run reattaches instead of
 * paying twice. A dry run stops at the gate: nothing sent, no lock, no journal write.
 */
import type { Plan } from '../api/plan.js';
import { batchStatusPlan, getBatchStatus, resumeBatch } from '../api/batch.js';
import { CliError, UsageError, withStopReport } from '../errors.js';
import type { HttpClient } from '../http/client.js';
import type { Terminal } from '../io/terminal.js';
import { downloadMany } from './combine.js';
import type { CsvReadOptions } from '../csv/read.js';
import { extractBatchInput } from './extract.js';
import {
  isDamaged,
  journalKey,
  LockedJournalEntry,
  readJournalEntry,
  type DamagedEntry,
  type InFlight,
  type JournalEntry,
} from './journal.js';
import { wireFields, type BatchJobOptions } from './options.js';
import { createPart, reportExtraction, uploadPlan, type BatchNames, type UploadPorts } from './upload.js';
import type { BatchStatus } from '../api/batch-status.js';
import { creditsText, waitForBatch, type WaitSettings } from './wait.js';
import { creditCount, plural } from '../words.js';

export interface RunPorts {
  http(): Promise<HttpClient>;
  gate(plan: Plan): Promise<boolean>;
  term: Terminal;
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  signal?: AbortSignal | undefined;
  journalDir: string;
  /** A job that has stopped charging enters the spend log (lib/store/jobs.ts). */
  charged?: ((status: BatchStatus) => Promise<void>) | undefined;
  /** Told each job created, with its worst case: budgets hold it until the job is seen finished. */
  opened?: UploadPorts['opened'];
}

export interface RunInput {
  /** The CSV file: not standard input (the file's hash is how a re-run finds the job). */
  source: string;
  job: BatchJobOptions;
  format: 'csv' | 'json';
  outputPath?: string | undefined;
  outputShown?: string | undefined;
  wait: WaitSettings;
  /** `--force`: start new jobs even if the journal knows some for this input (or a create whose reply was lost). */
  force: boolean;
  dryRun: boolean;
  /** Where the jobs live: part of the journal key, so another server or profile never reattaches. */
  baseUrl: string;
  profile: string;
  csv?: CsvReadOptions | undefined;
  named: BatchNames;
}

export async function runBatch(ports: RunPorts, o: RunInput): Promise<void> {
  const { term } = ports;
  const { job } = o;
  const extraction = await extractBatchInput(term, o.source, {
    kind: job.kind,
    column: job.column,
    csv: o.csv,
    named: o.named,
  });
  let locked: LockedJournalEntry | undefined;
  try {
    if (extraction.parts.length > 1 && o.format === 'json') {
      reportExtraction(term, o.source, extraction, o.named);
      throw new UsageError(
        `The input is split into ${extraction.parts.length} batches; their JSON results cannot be joined into one file.`,
        {
          hint: 'Use CSV output (-o results.csv), or upload and download the parts separately.',
        },
      );
    }
    const key = journalKey(extraction.inputSha256, {
      fields: wireFields(job),
      column: extraction.column,
      base_url: o.baseUrl,
      profile: o.profile,
    });
    locked = o.dryRun ? undefined : await LockedJournalEntry.open(ports.journalDir, key, o.source, ports.now);
    reportExtraction(term, o.source, extraction, o.named);
    const found = o.force ? undefined : locked ? locked.found : await readJournalEntry(ports.journalDir, key);
    // An entry that cannot be read may have named a job already paid for: never taken as none.
    if (isDamaged(found)) throw unreadableEntry(found, o.source, o.named);
    const previous = found;
    const now = new Date(ports.now()).toISOString();
    const entry: JournalEntry =
      previous && previous.batch_ids.length === extraction.parts.length
        ? { ...previous, batch_ids: [...previous.batch_ids] }
        : { batch_ids: extraction.parts.map(() => null), input: o.source, created_at: now, updated_at: now };
    if (entry.in_flight && entry.batch_ids[entry.in_flight.part] === null)
      throw mayAlreadyExist(entry, extraction.parts.length, o.named);
    const known = entry.batch_ids.filter((id): id is string => id !== null);
    if (known.length > 0)
      term.notice(
        `Reattaching to ${known.join(', ')} (started ${entry.created_at}); use ${o.named.force} to start a new job.`,
      );

    const missing = extraction.parts.filter((_, i) => entry.batch_ids[i] === null);
    const plan: Plan =
      missing.length > 0
        ? uploadPlan(job, missing)
        : { ...batchStatusPlan(known[0] as string), costBasis: 'reattaching to a job already paid for' };
    if (!(await ports.gate(plan)) || !locked) return;
    const journal = locked;
    const http = await ports.http();
    for (const [i, part] of extraction.parts.entries()) {
      if (entry.batch_ids[i] !== null) continue;
      // Recorded before the request leaves: if the reply never arrives, the re-run knows a job may exist.
      entry.in_flight = { part: i, sent_at: new Date(ports.now()).toISOString() };
      await journal.save(entry);
      let created;
      try {
        created = await createPart(http, job, part, ports.opened);
      } catch (err) {
        // A clear refusal from the server (an error status, not a may-have-run one): no job exists.
        if (err instanceof CliError && err.status !== undefined && !err.maybeCharged) {
          entry.in_flight = undefined;
          await journal.save(entry);
        }
        throw err;
      }
      entry.batch_ids[i] = created.batch_id;
      entry.in_flight = undefined;
      // Written after every part: a crash now still finds the jobs already paid for.
      await journal.save(entry);
      term.notice(`Batch ${created.batch_id} created (${plural(part.rows, 'row')}).`);
    }
    const ids = entry.batch_ids as string[];

    const again = `the same \`creators batch run\` command (it reattaches to ${ids.join(', ')}), or creators batch poll ${ids[0]}`;
    const waitPorts = {
      http: async () => http,
      term,
      now: ports.now,
      sleep: ports.sleep,
      signal: ports.signal,
      charged: ports.charged,
    };
    // What each job has used so far, as last read: the stop report of a run that stops while waiting.
    const used = new Map<string, number>();
    const stopped = (err: unknown): unknown =>
      withStopReport(err, {
        spentMilli: Math.round([...used.values()].reduce((a, b) => a + b, 0) * 1000),
        kept: `the results stay on the server in ${ids.length === 1 ? 'batch' : 'batches'} ${ids.join(', ')}; re-run the same command to pick ${ids.length === 1 ? 'it' : 'them'} up (nothing is paid again)`,
      });
    let credits = 0;
    let bytes: number;
    try {
      for (const id of ids) {
        if (known.includes(id)) {
          const current = await getBatchStatus(http, id);
          if (current.phase === 'paused') {
            // What it charged before the pause, logged before it charges again.
            await ports.charged?.(current);
            term.notice(`Batch ${id} is paused for credits; resuming it (free).`);
            await resumeBatch(http, id);
          }
        }
        const final = await waitForBatch(waitPorts, id, {
          ...o.wait,
          again,
          rerun: `the same \`creators batch run\` command (it resumes ${id} and downloads)`,
          onStatus: (s) => used.set(id, s.credits_used ?? 0),
        });
        credits += final.credits_used ?? 0;
        term.notice(`Batch ${id} ${final.status}: ${creditsText(final)} used.`);
      }
      bytes = await downloadMany(http, ids, {
        io: term,
        outputPath: o.outputPath,
        format: o.format,
        sleep: ports.sleep,
        signal: ports.signal,
        notice: (line) => term.notice(line),
      });
    } catch (err) {
      throw stopped(err);
    }
    await journal.save({ ...entry, completed_at: new Date(ports.now()).toISOString() });
    if (o.outputPath) {
      term.notice(
        `Wrote ${bytes.toLocaleString('en-US')} bytes of ${o.format.toUpperCase()} results to ${o.outputShown}; ${creditCount(credits * 1000)} used.`,
      );
    }
  } finally {
    locked?.release();
    await extraction.cleanup();
  }
}

/** Exit 2, not 9: waiting and retrying never helps; only the user can decide to pay for another job. */
function mayAlreadyExist(entry: JournalEntry, parts: number, named: BatchNames): UsageError {
  const inFlight = entry.in_flight as InFlight;
  const part = parts > 1 ? ` (part ${inFlight.part + 1} of ${parts})` : '';
  return new UsageError(
    `A batch job may already exist for ${entry.input}${part}: a run sent its create request at ${inFlight.sent_at} and stopped before the reply arrived (interrupted or killed), so its id is unknown.`,
    {
      code: 'maybe_created',
      maybeCharged: true,
      hint: `If it was created it runs and charges for its rows; \`creators credits\` shows what was used. To create another job anyway (charged again), re-run with ${named.force}.`,
    },
  );
}

/** Treated like a create whose reply was lost: the entry may have named a job already charging. */
function unreadableEntry(found: DamagedEntry, source: string, named: BatchNames): UsageError {
  return new UsageError(
    `A batch job may already exist for ${source}: its journal entry ${found.file} cannot be read (${found.why}), so whether an earlier run created a job is unknown.`,
    {
      code: 'maybe_created',
      maybeCharged: true,
      hint: `If a job was created it runs and charges for its rows; \`creators credits\` shows what was used. To create another job anyway (charged again), re-run with ${named.force}.`,
    },
  );
}
