/** The store location's rules in-process: the text of a setting, how it is shown, and the file it names. */
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CliError, EXIT } from '../../../src/lib/errors.js';
import {
  checkStoreSetting,
  prepareStoreFile,
  shownStoreValue,
  storeAddress,
  storeSettingProblem,
  storeSettingToKeep,
  storeValuePasswords,
} from '../../../src/lib/store/location.js';
import { openStore } from '../../../src/lib/store/open.js';
import { tempDir } from '../../helpers/temp.js';

function refusal(f: () => unknown): CliError {
  try {
    f();
  } catch (err) {
    if (err instanceof CliError) return err;
    throw err;
  }
  throw new Error('not refused');
}

describe('storeSettingProblem', () => {
  it.each([
    ['/home/me/creators.db'],
    ['relative/creators.db'],
    ['C:\\Users\\me\\creators.db'],
    ['postgres://analyst:pw@db.example:5432/creators'],
    ['postgresql://db.example/creators?sslmode=require'],
    ['POSTGRES://db.example/creators'],
    ['postgres://analyst@/creators?host=/run/postgresql'],
    ['my:store.db'],
  ])('accepts %s', (value) => {
    expect(storeSettingProblem(value)).toBeUndefined();
  });

  it.each([
    ['postgress://a:pw@db/x', "'postgress:' is not a scheme"],
    ['pg://a:pw@db/x', "'pg:' is not a scheme"],
    ['mysql://db/x', "'mysql:' is not a scheme"],
    ['xyz://db/x', "'xyz:' is not a scheme"],
    ['file:///tmp/x.db', "'file:' is not a scheme"],
    ['sqlite:x.db', "'sqlite:' is not a scheme"],
    ['"postgres://a:pw@db/x"', 'without quotes'],
    ["'postgres://a:pw@db/x'", 'without quotes'],
    ['"/home/me/x.db"', 'without quotes'],
    ['', 'must be a file path'],
  ])('refuses %s', (value, why) => {
    const problem = storeSettingProblem(value);
    expect(problem).toContain('must be a file path, or a postgres:// (or postgresql://) URL');
    expect(problem).toContain(why);
  });
});

describe('shownStoreValue', () => {
  it('hides the password of any URL, in the user part or as a parameter, and leaves a path as it is', () => {
    expect(shownStoreValue('postgres://analyst:s3cr%40t@db.example:5432/creators')).toBe(
      'postgres://analyst:***@db.example:5432/creators',
    );
    expect(shownStoreValue('"postgress://analyst:s3cret@db/x"')).toBe('"postgress://analyst:***@db/x"');
    expect(shownStoreValue('postgres://db/x?user=a&password=s3cret&sslmode=require')).toBe(
      'postgres://db/x?user=a&password=***&sslmode=require',
    );
    expect(shownStoreValue('postgres://analyst@db/x')).toBe('postgres://analyst@db/x');
    expect(shownStoreValue('/home/me/a:b@c.db')).toBe('/home/me/a:b@c.db');
    expect(shownStoreValue('postgres:analyst:s3cret@db/x')).toBe('postgres:analyst:***@db/x');
  });
});

describe('storeValuePasswords', () => {
  it('finds the password of a URL, mistyped or quoted, as written and decoded', () => {
    expect(storeValuePasswords('"postgress://analyst:s3cr%40t@db/x"')).toEqual(['s3cr%40t', 's3cr@t']);
    expect(storeValuePasswords('postgres://db/x?password=abc&user=a')).toEqual(['abc', 'abc']);
    expect(storeValuePasswords('/home/me/store.db')).toEqual([]);
  });
});

describe('storeAddress', () => {
  const base = { configDir: '/cfg', profile: 'default', cwd: '/work/here' };
  it('CREATORS_STORE before the setting; a relative env path from the current folder', () => {
    expect(storeAddress({ ...base, env: 'x.db', setting: '/elsewhere.db' })).toEqual({
      address: '/work/here/x.db',
      isDefault: false,
    });
    expect(storeAddress({ ...base, env: '', setting: '/elsewhere.db' })).toEqual({
      address: '/cfg/store/default.db',
      isDefault: true,
    });
    expect(storeAddress({ ...base, setting: '/elsewhere.db' })).toEqual({ address: '/elsewhere.db', isDefault: false });
    expect(storeAddress({ ...base, setting: ' postgres://a@db/x ' }).address).toBe('postgres://a@db/x');
  });

  it('an older relative setting is read from the config directory, with a warning', () => {
    const found = storeAddress({ ...base, setting: 'legacy.db' });
    expect(found.address).toBe('/cfg/legacy.db');
    expect(found.warning).toContain(
      "The store setting 'legacy.db' is a relative path; it is read from the config directory (/cfg/legacy.db).",
    );
  });

  it('refuses a mistyped URL (exit 2), without its password', () => {
    const err = refusal(() => storeAddress({ ...base, env: 'postgress://a:Hunter2-Sesame@db/x' }));
    expect(err.exitCode).toBe(EXIT.USAGE);
    expect(err.message).toBe(
      "The store location 'postgress://a:***@db/x' in CREATORS_STORE was refused: it must be a file path, or a postgres:// (or postgresql://) URL; 'postgress:' is not a scheme the store knows. Nothing was opened or sent.",
    );
    expect(refusal(() => storeAddress({ ...base, setting: '"postgres://a@db/x"' })).message).toContain(
      'in the store setting was refused',
    );
  });

  it('config set keeps a path absolute (from the current folder, ~ from home), a URL as given', () => {
    expect(storeSettingToKeep('x.db', '/work/here', '/home/me')).toBe('/work/here/x.db');
    expect(storeSettingToKeep('../x.db', '/work/here', '/home/me')).toBe('/work/x.db');
    expect(storeSettingToKeep('~/x.db', '/work/here', '/home/me')).toBe('/home/me/x.db');
    expect(storeSettingToKeep('postgres://a@db/x', '/work/here', '/home/me')).toBe('postgres://a@db/x');
  });
});

describe('prepareStoreFile', () => {
  it('creates the file 0600 in a new 0700 folder', () => {
    const file = join(tempDir('creators-loc-'), 'deep', 'er', 'store.db');
    expect(prepareStoreFile(file, { create: true })).toEqual({ exists: false, tightened: false });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(file, '..')).mode & 0o777).toBe(0o700);
  });

  it('does not create a missing file unless asked', () => {
    const file = join(tempDir('creators-loc-'), 'store.db');
    expect(prepareStoreFile(file, { create: false })).toEqual({ exists: false, tightened: false });
    expect(existsSync(file)).toBe(false);
  });

  it('tightens a looser file (and its own folder), but not when told not to (a dry run)', () => {
    const dir = join(tempDir('creators-loc-'), 'store');
    mkdirSync(dir);
    chmodSync(dir, 0o755);
    const file = join(dir, 'default.db');
    writeFileSync(file, '');
    chmodSync(file, 0o644);
    expect(prepareStoreFile(file, { create: false, tighten: false, privateFolder: true })).toEqual({
      exists: true,
      tightened: false,
    });
    expect(statSync(file).mode & 0o777).toBe(0o644);
    expect(statSync(dir).mode & 0o777).toBe(0o755);
    expect(prepareStoreFile(file, { create: true, privateFolder: true })).toEqual({ exists: true, tightened: true });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('refuses a symbolic link (to a file, or dangling) and a folder, touching nothing', () => {
    const dir = tempDir('creators-loc-');
    const target = join(dir, 'target.txt');
    writeFileSync(target, 'keep me');
    chmodSync(target, 0o644);
    const link = join(dir, 'store.db');
    symlinkSync(target, link);
    const err = refusal(() => prepareStoreFile(link, { create: true }));
    expect(err.exitCode).toBe(EXIT.USAGE);
    expect(err.message).toBe(
      `The store ${link} is a symbolic link (the store does not follow links), not a regular file; nothing was opened or sent.`,
    );
    expect(readFileSync(target, 'utf8')).toBe('keep me');
    expect(statSync(target).mode & 0o777).toBe(0o644);
    const dangling = join(dir, 'dangling.db');
    symlinkSync(join(dir, 'nowhere.db'), dangling);
    expect(refusal(() => prepareStoreFile(dangling, { create: true })).message).toContain('is a symbolic link');
    expect(existsSync(join(dir, 'nowhere.db'))).toBe(false);
    expect(refusal(() => prepareStoreFile(dir, { create: true })).message).toContain(
      `The store ${dir} is a folder, not a regular file`,
    );
  });

  it('holds the files SQLite writes beside the store to the same rules', () => {
    const dir = tempDir('creators-loc-');
    const file = join(dir, 'store.db');
    writeFileSync(file, '', { mode: 0o600 });
    writeFileSync(`${file}-wal`, '');
    chmodSync(`${file}-wal`, 0o644);
    prepareStoreFile(file, { create: true });
    expect(statSync(`${file}-wal`).mode & 0o777).toBe(0o600);
    const elsewhere = join(dir, 'elsewhere');
    writeFileSync(elsewhere, 'keep me');
    symlinkSync(elsewhere, `${file}-shm`);
    expect(refusal(() => prepareStoreFile(file, { create: true })).message).toBe(
      `The store ${file}-shm is a symbolic link, not a regular file; nothing was opened or sent.`,
    );
    expect(readFileSync(elsewhere, 'utf8')).toBe('keep me');
  });

  it('tightens a store file opened only to read (not a dry run)', () => {
    const file = join(tempDir('creators-loc-'), 'store.db');
    writeFileSync(file, '');
    chmodSync(file, 0o604);
    expect(prepareStoreFile(file, { create: false, tighten: true })).toEqual({ exists: true, tightened: true });
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('refuses a device', () => {
    expect(refusal(() => prepareStoreFile('/dev/null', { create: true })).message).toBe(
      'The store /dev/null is a character device, not a regular file; nothing was opened or sent.',
    );
  });
});

describe('openStore', () => {
  it('refuses a linked store file, read-only (a dry run) or not', async () => {
    const dir = tempDir('creators-loc-');
    const real = join(dir, 'real.db');
    await (await openStore({ file: real }))?.close();
    const link = join(dir, 'store.db');
    symlinkSync(real, link);
    const before = readFileSync(real);
    await expect(openStore({ file: link })).rejects.toThrow(/is a symbolic link/);
    await expect(openStore({ file: link, readOnly: true, dryRun: true })).rejects.toThrow(/is a symbolic link/);
    expect(readFileSync(real).equals(before)).toBe(true);
  });
});

describe('a mistyped URL never becomes a file, and its password is never shown', () => {
  it('a URL that lost its colon is refused; the password of a mistyped URL is masked in the refusal', () => {
    for (const v of [
      'postgres//u:s3cret@h/db',
      'postgresql//u:s3cret@h/db',
      'postgres:/u:s3cret@h/db',
      'postgres:u:s3cret@h/db',
    ]) {
      expect(storeSettingProblem(v), v).toBeDefined();
      let message = '';
      try {
        checkStoreSetting(v, 'CREATORS_STORE');
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message, v).toMatch(/was refused/);
      expect(message, v).not.toContain('s3cret');
      expect(storeValuePasswords(v), v).toContain('s3cret');
    }
    // A real URL with its password, and ordinary paths, are still accepted.
    expect(storeSettingProblem('postgres://u:s3cret@h:5432/db')).toBeUndefined();
    expect(storeSettingProblem('/home/ann/stores/team@2026.db')).toBeUndefined();
    expect(storeSettingProblem('C:/stores/x.db')).toBeUndefined();
  });
});
