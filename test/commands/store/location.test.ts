/**
 * Where the store may be: a mistyped or quoted URL in CREATORS_STORE or a profile stops the run before anything
 * is sent or created (never a local SQLite file named after the URL); a device, FIFO or symbolic link is refused;
 * the store file is kept 0600 in a 0700 folder; an older version's relative setting is read from the config
 * directory, with a warning.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../../helpers/run-cli.js';
import { sandboxEnv, useSandbox } from '../../helpers/sandbox.js';
import { spawnCli } from '../../helpers/spawn-cli.js';
import { tempDir } from '../../helpers/temp.js';
import { ledgerMark } from '../../reliability/helpers.js';

const sb = useSandbox();

const BUY = ['enrich', 'handle', 'noah_paws', '--platform', 'instagram', '--mode', 'raw'];
const PASSWORD = 'Hunter2-Sesame';

/** Every path under `dir` (folders end in /), relative to it. */
function tree(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      out.push(relative(dir, p) + (e.isDirectory() ? '/' : ''));
      if (e.isDirectory()) walk(p);
    }
  };
  walk(dir);
  return out.sort();
}

/** A profile whose settings an older version wrote (config set refuses these now). */
function profileWith(configDir: string, settings: Record<string, string>): void {
  writeFileSync(join(configDir, 'config.json'), JSON.stringify({ profiles: { default: settings } }), { mode: 0o600 });
}

describe('a store setting that is not a path or a postgres:// URL, at run time', () => {
  it.each([
    ['postgress://analyst:Hunter2-Sesame@db.example/creators', "'postgress:' is not a scheme the store knows"],
    ['pg://analyst:Hunter2-Sesame@db.example/creators', "'pg:' is not a scheme the store knows"],
    ['"postgres://analyst:Hunter2-Sesame@db.example/creators"', 'without quotes around it'],
  ])('CREATORS_STORE=%s: exit 2 before anything is sent, no file created anywhere', async (value, why) => {
    const configDir = tempConfigDir();
    const cwd = tempDir('creators-cwd-');
    const mark = ledgerMark(sb.get());
    const res = await runCli(BUY, { env: sandboxEnv(sb.get(), { CREATORS_STORE: value }), configDir, cwd });
    expect(res.code, res.stderr).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain(
      `in CREATORS_STORE was refused: it must be a file path, or a postgres:// (or postgresql://) URL`,
    );
    expect(res.stderr).toContain(why);
    expect(res.stderr).toContain('Nothing was opened or sent.');
    expect(res.stderr).not.toContain(PASSWORD);
    expect(mark.since().count).toBe(0);
    expect(tree(cwd)).toEqual([]);
    expect(tree(configDir).filter((p) => p !== 'config.json')).toEqual([]);
  });

  it('a command that would not open the store before buying (api, batch run) is stopped too, nothing charged', async () => {
    const cwd = tempDir('creators-cwd-');
    writeFileSync(join(cwd, 'handles.csv'), 'handle\nnoah_paws\n');
    const env = sandboxEnv(sb.get(), { CREATORS_STORE: 'pg://analyst:Hunter2-Sesame@db.example/creators' });
    const mark = ledgerMark(sb.get());
    for (const argv of [
      [
        'api',
        'public/v1/creators/enrich/handle/raw/',
        '-X',
        'POST',
        '-f',
        'handle=noah_paws',
        '-f',
        'platform=instagram',
      ],
      ['batch', 'run', 'handles.csv', '--mode', 'raw', '--platform', 'instagram', '-o', 'out.csv', '--yes'],
    ]) {
      const res = await runCli(argv, { env, configDir: tempConfigDir(), cwd });
      expect(res.code, `${argv.join(' ')}: ${res.stderr}`).toBe(2);
      expect(res.stderr).toContain(
        "error: The store location 'pg://analyst:***@db.example/creators' in CREATORS_STORE was refused",
      );
    }
    expect(mark.since().count).toBe(0);
    expect(tree(cwd)).toEqual(['handles.csv']);
  });

  it('the same value in a profile (written by an older version) is refused the same way, naming the setting', async () => {
    const configDir = tempConfigDir();
    const cwd = tempDir('creators-cwd-');
    profileWith(configDir, { store: 'pg://analyst:Hunter2-Sesame@db.example/creators' });
    const mark = ledgerMark(sb.get());
    const res = await runCli(BUY, { env: sandboxEnv(sb.get()), configDir, cwd });
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toContain(
      "error: The store location 'pg://analyst:***@db.example/creators' in the store setting was refused",
    );
    expect(res.stderr).toContain('creators config set store');
    expect(mark.since().count).toBe(0);
    expect(tree(cwd)).toEqual([]);
    expect(tree(configDir)).toEqual(['config.json']);
  });

  it('store migrate and store push refuse it too, dry run or not', async () => {
    const configDir = tempConfigDir();
    const cwd = tempDir('creators-cwd-');
    const env = sandboxEnv(sb.get(), { CREATORS_STORE: 'postgress://analyst:Hunter2-Sesame@db.example/creators' });
    for (const argv of [
      ['store', 'migrate'],
      ['store', 'migrate', '--dry-run'],
      ['store', 'push'],
      ['store', 'push', '--dry-run'],
      ['store', 'path'],
    ]) {
      const res = await runCli(argv, { env, configDir, cwd });
      expect(res.code, argv.join(' ')).toBe(2);
      expect(res.stderr, argv.join(' ')).toContain('was refused');
    }
    expect(tree(cwd)).toEqual([]);
    expect(tree(configDir)).toEqual([]);
  });
});

describe('a relative store path kept by an older version', () => {
  it('is read from the config directory, never from the current folder, with a warning', async () => {
    const configDir = tempConfigDir();
    profileWith(configDir, { store: 'legacy.db' });
    const cwd = tempDir('creators-cwd-');
    const res = await runCli(BUY, { env: sandboxEnv(sb.get()), configDir, cwd });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain(
      `warning: The store setting 'legacy.db' is a relative path; it is read from the config directory (${join(configDir, 'legacy.db')}).`,
    );
    expect(tree(cwd)).toEqual([]);
    expect(existsSync(join(configDir, 'legacy.db'))).toBe(true);
    // From another folder, the same store answers: nothing is bought again.
    const mark = ledgerMark(sb.get());
    const again = await runCli(BUY, { env: sandboxEnv(sb.get()), configDir, cwd: tempDir('creators-cwd-') });
    expect(again.code, again.stderr).toBe(0);
    expect(mark.since().count).toBe(0);
  });
});

describe('a store location that is not a regular file', () => {
  it('CREATORS_STORE=/dev/stdout: refused, nothing written to stdout, nothing charged', async () => {
    const mark = ledgerMark(sb.get());
    const res = await spawnCli(
      BUY,
      { ...sandboxEnv(sb.get()), CREATORS_CONFIG_DIR: tempConfigDir(), CREATORS_STORE: '/dev/stdout' },
      undefined,
      15_000,
    );
    expect(res.signal).toBeNull();
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(
      /^error: The store \/dev\/stdout is a symbolic link to a (FIFO \(named pipe\)|socket), not a regular file; nothing was opened or sent\.\n/,
    );
    expect(mark.since().count).toBe(0);
  });

  it('CREATORS_STORE=/dev/null: refused, also in a dry run and by store migrate --dry-run', async () => {
    const env = sandboxEnv(sb.get(), { CREATORS_STORE: '/dev/null' });
    for (const argv of [BUY, [...BUY, '--dry-run'], ['store', 'migrate', '--dry-run'], ['store', 'stats']]) {
      const res = await runCli(argv, { env, configDir: tempConfigDir() });
      expect(res.code, argv.join(' ')).toBe(2);
      expect(res.stderr, argv.join(' ')).toContain(
        'error: The store /dev/null is a character device, not a regular file',
      );
    }
  });

  it('a FIFO: refused at once (no hang waiting for a reader), left as it was', async () => {
    const dir = tempDir('creators-fifo-');
    const fifo = join(dir, 'store.db');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const mark = ledgerMark(sb.get());
    const res = await spawnCli(
      BUY,
      { ...sandboxEnv(sb.get()), CREATORS_CONFIG_DIR: tempConfigDir(), CREATORS_STORE: fifo },
      undefined,
      15_000,
    );
    expect(res.signal).toBeNull();
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`error: The store ${fifo} is a FIFO (named pipe), not a regular file`);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(mark.since().count).toBe(0);
  });

  it('a folder: refused', async () => {
    const dir = tempDir('creators-dir-');
    const res = await runCli(BUY, { env: sandboxEnv(sb.get(), { CREATORS_STORE: dir }), configDir: tempConfigDir() });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`error: The store ${dir} is a folder, not a regular file`);
  });

  it('a symbolic link to a file: refused, its target untouched (content and mode), in a run, a dry run and store push --from', async () => {
    const dir = tempDir('creators-link-');
    const target = join(dir, 'precious.txt');
    writeFileSync(target, 'not a database\n', { mode: 0o644 });
    chmodSync(target, 0o644);
    const link = join(dir, 'store.db');
    symlinkSync(target, link);
    const mark = ledgerMark(sb.get());
    for (const argv of [BUY, [...BUY, '--dry-run'], ['store', 'stats'], ['store', 'migrate']]) {
      const res = await runCli(argv, {
        env: sandboxEnv(sb.get(), { CREATORS_STORE: link }),
        configDir: tempConfigDir(),
      });
      expect(res.code, argv.join(' ')).toBe(2);
      expect(res.stderr, argv.join(' ')).toContain(
        `error: The store ${link} is a symbolic link (the store does not follow links), not a regular file`,
      );
    }
    const push = await runCli(['store', 'push', '--from', link], {
      env: sandboxEnv(sb.get(), { CREATORS_STORE: 'postgres://nobody@127.0.0.1:1/none' }),
      configDir: tempConfigDir(),
    });
    expect(push.code).toBe(2);
    expect(push.stderr).toContain('is a symbolic link');
    expect(mark.since().count).toBe(0);
    expect(readFileSync(target, 'utf8')).toBe('not a database\n');
    expect(statSync(target).mode & 0o777).toBe(0o644);
    expect(readdirSync(dir).sort()).toEqual(['precious.txt', 'store.db']);
  });

  it('a symbolic link to an empty file: refused, never turned into a database through the link', async () => {
    const dir = tempDir('creators-link-');
    const target = join(dir, 'empty');
    writeFileSync(target, '');
    const link = join(dir, 'store.db');
    symlinkSync(target, link);
    const res = await runCli(BUY, { env: sandboxEnv(sb.get(), { CREATORS_STORE: link }), configDir: tempConfigDir() });
    expect(res.code).toBe(2);
    expect(statSync(target).size).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['empty', 'store.db']);
  });
});

describe('the store file and folder modes', () => {
  it('a new store is 0600 in a 0700 folder; found 0644 in a 0755 folder, a run brings them back, a dry run does not', async () => {
    const configDir = tempConfigDir();
    const env = sandboxEnv(sb.get());
    const file = join(configDir, 'store', 'default.db');
    const first = await runCli(BUY, { env, configDir });
    expect(first.code, first.stderr).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(configDir, 'store')).mode & 0o777).toBe(0o700);

    chmodSync(file, 0o644);
    chmodSync(join(configDir, 'store'), 0o755);
    const dry = await runCli([...BUY.filter((a) => a !== 'noah_paws'), 'ella_strong', '--dry-run'], { env, configDir });
    expect(dry.code, dry.stderr).toBe(0);
    // A dry run changes nothing anywhere.
    expect(statSync(file).mode & 0o777).toBe(0o644);
    expect(statSync(join(configDir, 'store')).mode & 0o777).toBe(0o755);

    const run = await runCli(BUY, { env, configDir });
    expect(run.code, run.stderr).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(configDir, 'store')).mode & 0o777).toBe(0o700);
  });

  it("a store file of the user's own choosing is tightened, its folder left as the user keeps it", async () => {
    const dir = tempDir('creators-own-');
    mkdirSync(join(dir, 'shared'), { mode: 0o755 });
    chmodSync(join(dir, 'shared'), 0o755);
    const file = join(dir, 'shared', 'mine.db');
    const env = sandboxEnv(sb.get(), { CREATORS_STORE: file });
    expect((await runCli(BUY, { env, configDir: tempConfigDir() })).code).toBe(0);
    chmodSync(file, 0o664);
    expect((await runCli(BUY, { env, configDir: tempConfigDir() })).code).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'shared')).mode & 0o777).toBe(0o755);
  });
});

describe('the store waits that the environment sets', () => {
  it.each(['CREATORS_STORE_BUSY_TIMEOUT', 'CREATORS_STORE_CLAIM_WAIT'])(
    '%s that is not seconds: exit 2 naming it, nothing bought',
    async (name) => {
      const mark = ledgerMark(sb.get());
      const res = await runCli(BUY, { env: sandboxEnv(sb.get(), { [name]: 'soon' }), configDir: tempConfigDir() });
      expect(res.code, res.stderr).toBe(2);
      expect(res.stderr).toContain(`Invalid ${name} 'soon': expected seconds, 0 or more.`);
      expect(mark.since().count).toBe(0);
    },
  );
});

describe('a store in a folder that cannot be made', () => {
  it.each(['/proc/nope/store.db', '/dev/null/store.db'])(
    '%s: the run stops at once naming the store (it spun forever in a recursive mkdir), nothing bought',
    async (file) => {
      const mark = ledgerMark(sb.get());
      const env = { ...sandboxEnv(sb.get(), { CREATORS_STORE: file }), CREATORS_CONFIG_DIR: tempConfigDir() } as Record<
        string,
        string
      >;
      const res = await spawnCli([...BUY, '--json'], env, undefined, 15_000);
      expect(res.code, res.stderr).toBe(1);
      expect(JSON.parse(res.stderr).error).toMatchObject({
        code: 'store_failed',
        message: expect.stringContaining(`Cannot use the store ${file}`),
      });
      expect(mark.since().count).toBe(0);
    },
  );
});
