import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), '..', 'compose', 'backup.sh');
/** pg_dump as far as the script can tell: writes its --file, then succeeds, or fails half-way when PG_DUMP_FAILS is set. */
const FAKE_PG_DUMP = `#!/bin/sh
for arg in "$@"; do case "$arg" in --file=*) echo "a dump of $PGDATABASE" > "\${arg#--file=}" ;; esac; done
[ -z "\${PG_DUMP_FAILS:-}" ] || { echo "pg_dump: error: connection lost" >&2; exit 1; }
`;

let workspace: string;
let backups: string;

function backup(args: string[], env: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync('sh', [SCRIPT, ...args], {
    encoding: 'utf8',
    env: { PATH: `${join(workspace, 'bin')}:${process.env['PATH']}`, PGDATABASE: 'smsq', SMSQ_BACKUP_DIR: backups, SMSQ_BACKUP_KEEP: '3', ...env },
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), 'smsq-backup-script-'));
  backups = join(workspace, 'backups');
  mkdirSync(join(workspace, 'bin'));
  writeFileSync(join(workspace, 'bin', 'pg_dump'), FAKE_PG_DUMP);
  chmodSync(join(workspace, 'bin', 'pg_dump'), 0o755);
});

afterEach(() => rmSync(workspace, { recursive: true, force: true }));

describe('deploy/compose/backup.sh (smsq-backup in the backup service)', () => {
  it('now: writes one dump named by the UTC time, prints it, and keeps only the newest SMSQ_BACKUP_KEEP', () => {
    mkdirSync(backups);
    const older = ['smsq-20260101T030000Z.dump', 'smsq-20260102T030000Z.dump', 'smsq-20260103T030000Z.dump', 'smsq-20260104T030000Z.dump'];
    for (const name of older) writeFileSync(join(backups, name), 'old');
    writeFileSync(join(backups, 'notes.txt'), 'not a backup');
    const run = backup(['now']);
    expect(run.status).toBe(0);
    const file = run.stdout.trim();
    expect(file).toMatch(new RegExp(`^${backups}/smsq-\\d{8}T\\d{6}Z\\.dump$`));
    expect(readdirSync(backups).sort()).toEqual(['notes.txt', 'smsq-20260103T030000Z.dump', 'smsq-20260104T030000Z.dump', file.slice(backups.length + 1)].sort());
  });

  it('now: a pg_dump that fails leaves no file that looks like a backup, prunes nothing, and fails', () => {
    mkdirSync(backups);
    writeFileSync(join(backups, 'smsq-20260101T030000Z.dump'), 'old');
    const run = backup(['now'], { PG_DUMP_FAILS: '1', SMSQ_BACKUP_KEEP: '1' });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(/pg_dump failed/);
    expect(readdirSync(backups)).toEqual(['smsq-20260101T030000Z.dump']);
  });

  it('check: healthy while the newest backup is younger than the interval and an hour, unhealthy before the first and after that', () => {
    expect(backup(['check']).status).toBe(1);
    mkdirSync(backups);
    const file = join(backups, 'smsq-20260101T030000Z.dump');
    writeFileSync(file, 'a dump');
    expect(backup(['check'], { SMSQ_BACKUP_INTERVAL_S: '86400' }).status).toBe(0);
    const old = Date.now() / 1000 - (86_400 + 3_600 + 60);
    utimesSync(file, old, old);
    const stale = backup(['check'], { SMSQ_BACKUP_INTERVAL_S: '86400' });
    expect(stale.status).toBe(1);
    expect(stale.stderr).toMatch(/is \d+ s old/);
  });

  it('refuses settings that would delete every backup or dump without pause, and an unknown command', () => {
    expect(backup(['now'], { SMSQ_BACKUP_KEEP: '0' }).status).toBe(64);
    expect(backup(['now'], { SMSQ_BACKUP_KEEP: 'all' }).status).toBe(64);
    expect(backup(['schedule'], { SMSQ_BACKUP_INTERVAL_S: '5' }).status).toBe(64);
    expect(backup(['restore']).status).toBe(64);
    expect(backup(['backup']).status).toBe(64);
  });
});
