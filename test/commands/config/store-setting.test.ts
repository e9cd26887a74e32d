/**
 * The `store` setting cannot hurt: a team store URL's password is never printed by `config get`/`list` (every
 * format, dry-run plans and debug lines included), a relative path is kept absolute, and a value that is
 * neither a path nor a postgres:// URL is refused at `config set` (exit 2) with nothing written anywhere.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../../helpers/run-cli.js';
import { tempDir } from '../../helpers/temp.js';

const PASSWORD = 'Hunter2-Sesame';
const URL_WITH_PASSWORD = `postgres://analyst:${PASSWORD}@db.example:5432/creators`;

function storedSettings(configDir: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8')).profiles.default as Record<string, unknown>;
}

describe('config get/list and the store URL', () => {
  it('never print the password, in any format, with --debug, in a dry-run plan or in the set line', async () => {
    const configDir = tempConfigDir();
    const set = await runCli(['config', 'set', 'store', URL_WITH_PASSWORD, '--debug'], { configDir });
    expect(set.code, set.stderr).toBe(0);
    expect(set.stderr).not.toContain(PASSWORD);
    // Kept as given: the password is needed to connect.
    expect(storedSettings(configDir).store).toBe(URL_WITH_PASSWORD);

    const get = await runCli(['config', 'get', 'store', '--debug'], { configDir });
    expect(get.code).toBe(0);
    expect(get.stdout).toBe('postgres://analyst:***@db.example:5432/creators\n');
    expect(get.stderr).not.toContain(PASSWORD);

    for (const format of ['table', 'json', 'jsonl', 'csv', 'tsv']) {
      for (const tty of [false, true]) {
        const list = await runCli(['config', 'list', '--format', format, '--debug'], { configDir, tty });
        expect(list.code, `${format} ${list.stderr}`).toBe(0);
        expect(list.stdout, format).toContain('postgres://analyst:***@db.example:5432/creators');
        expect(list.combined, format).not.toContain(PASSWORD);
      }
    }
    const json = await runCli(['config', 'list', '--json'], { configDir });
    expect(json.json()).toEqual([{ key: 'store', value: 'postgres://analyst:***@db.example:5432/creators' }]);

    const plan = await runCli(
      ['config', 'set', 'store', 'postgresql://analyst:0ther-Secret-77@db2.example/creators', '--dry-run', '--json'],
      { configDir },
    );
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.json()).toMatchObject({
      changes: [
        {
          key: 'store',
          value: 'postgresql://analyst:***@db2.example/creators',
          previous: 'postgres://analyst:***@db.example:5432/creators',
        },
      ],
    });
    expect(plan.combined).not.toContain(PASSWORD);
    expect(plan.combined).not.toContain('0ther-Secret-77');

    // Asked for in full, it is given in full.
    expect((await runCli(['config', 'get', 'store', '--show-secret'], { configDir })).stdout).toBe(
      `${URL_WITH_PASSWORD}\n`,
    );
  });

  it('hide a password given as a URL parameter too', async () => {
    const configDir = tempConfigDir();
    expect(
      (
        await runCli(['config', 'set', 'store', `postgres://db.example/creators?user=analyst&password=${PASSWORD}`], {
          configDir,
        })
      ).code,
    ).toBe(0);
    const list = await runCli(['config', 'list', '--format', 'csv'], { configDir });
    expect(list.stdout).toBe('key,value\nstore,postgres://db.example/creators?user=analyst&password=***\n');
  });
});

describe('config set store', () => {
  it('keeps a relative path as an absolute one, from the folder it was set in, and says so', async () => {
    const configDir = tempConfigDir();
    const cwd = tempDir('creators-cwd-');
    const set = await runCli(['config', 'set', 'store', 'relative.db'], { configDir, cwd });
    expect(set.code, set.stderr).toBe(0);
    expect(storedSettings(configDir).store).toBe(join(cwd, 'relative.db'));
    expect(set.stderr).toBe(
      `Set store in profile 'default' as ${join(cwd, 'relative.db')} (resolved from relative.db).\n`,
    );
    // Another folder finds the same store.
    const path = await runCli(['store', 'path'], { configDir, cwd: tempDir('creators-elsewhere-') });
    expect(path.stdout).toBe(`${join(cwd, 'relative.db')}\n`);
    // Setting it is not creating it.
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('a dry run shows the absolute path it would keep', async () => {
    const configDir = tempConfigDir();
    const cwd = tempDir('creators-cwd-');
    const plan = await runCli(['config', 'set', 'store', './sub/team.db', '--dry-run', '--json'], { configDir, cwd });
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.json()).toMatchObject({ changes: [{ key: 'store', value: join(cwd, 'sub', 'team.db') }] });
    expect(readdirSync(configDir)).toEqual([]);
  });

  it.each([
    ['postgress://analyst:Hunter2-Sesame@db.example/creators', "'postgress:' is not a scheme the store knows"],
    ['pg://analyst:Hunter2-Sesame@db.example/creators', "'pg:' is not a scheme the store knows"],
    ['mysql://analyst:Hunter2-Sesame@db.example/creators', "'mysql:' is not a scheme the store knows"],
    ['xyz://db.example/creators', "'xyz:' is not a scheme the store knows"],
    ['"postgres://analyst:Hunter2-Sesame@db.example/creators"', 'without quotes around it'],
    ["'postgres://analyst:Hunter2-Sesame@db.example/creators'", 'without quotes around it'],
  ])('refuses %s (exit 2) naming the accepted forms, and writes nothing', async (value, why) => {
    const configDir = tempConfigDir();
    const cwd = tempDir('creators-cwd-');
    const res = await runCli(['config', 'set', 'store', value], { configDir, cwd });
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(
      `error: Invalid value for 'store': must be a file path, or a postgres:// (or postgresql://) URL; ${why}.\n`.replace(
        'URL; without',
        'URL, without',
      ),
    );
    expect(res.combined).not.toContain(PASSWORD);
    expect(readdirSync(cwd)).toEqual([]);
    expect(readdirSync(configDir)).toEqual([]);
  });
});
