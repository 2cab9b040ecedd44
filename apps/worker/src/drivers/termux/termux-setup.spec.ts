import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isRunning, TermuxStandIns, until } from '@smsq/testing';
import { createCommandRunner, type CommandRunner } from './command-runner.js';
import { checkTermuxSetup } from './termux-setup.js';

describe(checkTermuxSetup.name, () => {
  let standIns: TermuxStandIns;

  beforeEach(async () => {
    standIns = await TermuxStandIns.start();
  });

  afterEach(async () => {
    await standIns.close();
  });

  it('finds nothing wrong when the programs answer', async () => {
    expect(await checkTermuxSetup(createCommandRunner(standIns.env))).toEqual([]);
    expect(standIns.calls().map((call) => call.program)).toEqual(['termux-battery-status', 'termux-sms-list']);
  });

  it('asks for the termux-api package when termux-sms-send is not on PATH', async () => {
    const sut = await checkTermuxSetup(createCommandRunner({ ...process.env, PATH: standIns.dir }));

    expect(sut).toEqual(['termux-sms-send is not on PATH: install the termux-api package: pkg install termux-api']);
  });

  it('asks for the Termux:API app when the programs get no answer', async () => {
    await standIns.control({ battery: 'hang' });

    const sut = await checkTermuxSetup(createCommandRunner(standIns.env), 300);

    expect(sut).toEqual(['the Termux:API app did not answer termux-battery-status within 0.3 s: install the Termux:API app from where Termux came from (F-Droid or GitHub; builds from different sources cannot talk to each other)']);
    await until(() => standIns.hungPids().every((pid) => !isRunning(pid)));
  });

  it('asks for the SMS permission when termux-sms-list is refused', async () => {
    await standIns.control({ list: { error: 'Please grant the following permission to use this command: android.permission.READ_SMS' } });

    const sut = await checkTermuxSetup(createCommandRunner(standIns.env));

    expect(sut).toEqual([
      'termux-sms-list: Please grant the following permission to use this command: android.permission.READ_SMS: allow SMS for Termux:API (Android settings → Apps → Termux:API → Permissions); replies and send confirmations need it',
    ]);
  });

  it('asks for a newer Termux:API app when termux-sms-list prints no _id', async () => {
    await standIns.receive({ from: '+381641234567', body: 'Hi' });
    await standIns.control({ list: { format: 'without-ids' } });

    const sut = await checkTermuxSetup(createCommandRunner(standIns.env));

    expect(sut).toEqual(['termux-sms-list prints no _id: update the Termux:API app: replies and send confirmations need it']);
  });

  it("says when Node's time zone is not the phone's, as SMS times are local", async () => {
    const nodeMinutes = -new Date().getTimezoneOffset();
    const phoneZone = nodeMinutes === 60 ? '+0200' : '+0100';
    const run: CommandRunner = (program, args, request) => (program === 'date' ? Promise.resolve({ kind: 'exited', code: 0, signal: null, stdout: `${phoneZone}\n`, stderr: '' }) : createCommandRunner(standIns.env)(program, args, request));

    const sut = await checkTermuxSetup(run);

    expect(sut).toEqual([expect.stringMatching(new RegExp(`^Node's time zone \\(UTC[+-]\\d{2}:\\d{2}\\) is not the phone's \\(UTC${phoneZone.slice(0, 3).replace('+', '\\+')}:00\\): start the worker with TZ=\\$\\(getprop persist.sys.timezone\\)`))]);
  });
});
