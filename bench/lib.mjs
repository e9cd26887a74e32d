// Helpers for bench/run.mjs: child processes with wall time and peak RSS, medians, file generation.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, createWriteStream } from 'node:fs';
import { once } from 'node:events';

export const TIME_V = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

/** The environment every measured child gets: ours without NODE_EXTRA_CA_CERTS (it adds ~70 ms to each Node start). */
export function benchEnv(extra = {}) {
  const env = { ...process.env, ...extra };
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

/**
 * Runs a command to the end; returns {code, ms, peakKb, cpuMs, stdout, lines (of stdout), stderr}. Peak RSS comes from
 * `/usr/bin/time` when present (exact), else from polling /proc/<pid>/status VmHWM every 20 ms. cpuMs
 * (user + system, from /usr/bin/time; undefined without it) tells a slow program from a busy machine.
 * `onStderrLine` sees stderr lines as they come (the sandbox's request log).
 */
export async function measure(
  cmd,
  args,
  { env = benchEnv(), stdin = 'ignore', keepStdout = true, rss = true, onStderrLine } = {},
) {
  const useTime = rss && TIME_V !== undefined;
  const [file, argv] = useTime ? [TIME_V, ['-f', '__PEAK_KB__ %M %U %S', cmd, ...args]] : [cmd, args];
  const started = process.hrtime.bigint();
  const child = spawn(file, argv, { env, stdio: [stdin, 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let peakKb = 0;
  let cpuMs;
  let lines = 0;
  child.stdout.on('data', (c) => {
    if (keepStdout) stdout += c;
    for (let i = c.indexOf(10); i !== -1; i = c.indexOf(10, i + 1)) lines++;
  });
  let pending = '';
  child.stderr.on('data', (c) => {
    pending += c;
    const lines = pending.split('\n');
    pending = lines.pop();
    for (const line of lines) {
      const m = /^__PEAK_KB__ (\d+) ([\d.]+) ([\d.]+)$/.exec(line);
      if (m) {
        peakKb = Math.max(peakKb, Number(m[1]));
        cpuMs = (Number(m[2]) + Number(m[3])) * 1000;
      } else {
        stderr += `${line}\n`;
        onStderrLine?.(line);
      }
    }
  });
  const poll =
    rss && !useTime
      ? setInterval(() => {
          try {
            const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
            if (m) peakKb = Math.max(peakKb, Number(m[1]));
          } catch {}
        }, 20)
      : undefined;
  const [code] = await once(child, 'close');
  if (poll) clearInterval(poll);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  return { code, ms, peakKb, cpuMs, stdout, lines, stderr: stderr + pending };
}

/** The fastest run: on a shared machine interference only ever adds time, so the best of N is each side's own cost. */
export function bestRun(runs) {
  return [...runs].sort((a, b) => a.ms - b.ms)[0];
}

/** The run with the median wall time (its peak RSS comes with it). */
export function medianRun(runs) {
  const sorted = [...runs].sort((a, b) => a.ms - b.ms);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** Writes `rows` CSV rows of about 100 bytes (handle,name,email,city,notes) to `path`, in big chunks. */
export async function writeCsv(path, rows) {
  const out = createWriteStream(path);
  out.write('handle,name,email,city,notes\n');
  const cities = ['Berlin', 'Lisbon', 'New York, NY', 'São Paulo', 'Tokyo'];
  let chunk = [];
  for (let i = 0; i < rows; i++) {
    chunk.push(
      `creator_${i},Creator Number ${i},creator${i}@example.com,"${cities[i % 5]}",row ${i} of a generated benchmark file\n`,
    );
    if (chunk.length === 10_000) {
      if (!out.write(chunk.join(''))) await once(out, 'drain');
      chunk = [];
    }
  }
  out.end(chunk.join(''));
  await once(out, 'finish');
}

/** The bench's enrichment: `creators enrich handle` of an Instagram list into `output`, quiet, then `extra`. */
export function enrichArgs(input, output, { mode, extra = [] } = {}) {
  return [
    'enrich',
    'handle',
    '--platform',
    'instagram',
    '--input',
    input,
    ...(mode ? ['--mode', mode] : []),
    '-o',
    output,
    '--quiet',
    ...extra,
  ];
}

export const fmtMs = (ms) => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(ms < 100 ? 1 : 0)} ms`);
export const fmtMb = (kb) => `${(kb / 1024).toFixed(0)} MB`;

/** One figure line: `name  ratio  (details)  budget: PASS|MISS`. */
export function line(name, ratio, details, pass, budget) {
  const r = Number.isFinite(ratio) ? `${ratio.toFixed(2)}x` : 'n/a';
  return `${name.padEnd(34)} ${r.padStart(6)}  ${details}  [budget ${budget}: ${pass ? 'PASS' : 'MISS'}]`;
}
