import { createCommandRunner, type CommandRunner } from './command-runner.js';
import { OLD_APP, readSmsList } from './sms-list-reader.js';
import { describeFailure, readJsonAnswer, seconds } from './termux-answers.js';

const INSTALL_PACKAGE = 'install the termux-api package: pkg install termux-api';

/**
 * What stands between this phone and the Termux driver, as sentences for its owner; empty when
 * nothing does. Whether Android lets Termux:API send SMS cannot be seen without sending one: the
 * first send answers that.
 */
export async function checkTermuxSetup(run: CommandRunner = createCommandRunner(), timeoutMs = 10_000): Promise<string[]> {
  // `-h` prints the usage without reaching the app, so this only asks whether the scripts are there.
  const usage = await run('termux-sms-send', ['-h'], { timeoutMs });
  if (usage.kind === 'not-started') return [usage.reason === 'ENOENT' ? `termux-sms-send is not on PATH: ${INSTALL_PACKAGE}` : describeFailure('termux-sms-send', usage, timeoutMs)];

  const battery = readJsonAnswer('termux-battery-status', await run('termux-battery-status', [], { timeoutMs }), timeoutMs);
  if (!battery.ok && battery.timedOut) {
    return [`the Termux:API app did not answer termux-battery-status within ${seconds(timeoutMs)} s: install the Termux:API app from where Termux came from (F-Droid or GitHub; builds from different sources cannot talk to each other)`];
  }
  const problems = battery.ok ? [] : [battery.problem];

  const list = await readSmsList(run, { type: 'all', limit: 1 }, timeoutMs);
  if (!list.ok && /no longer permitted by Google/i.test(list.problem)) problems.push(`${list.problem}: the Google Play build of Termux:API cannot read SMS; install Termux and Termux:API from F-Droid or GitHub`);
  else if (!list.ok && list.problem === OLD_APP) problems.push(`${OLD_APP}: replies and send confirmations need it`);
  else if (!list.ok) problems.push(`${list.problem}: allow SMS for Termux:API (Android settings → Apps → Termux:API → Permissions); replies and send confirmations need it`);

  const zone = await timeZoneMismatch(run, timeoutMs);
  if (zone) problems.push(zone);
  return problems;
}

/** termux-sms-list prints local times; Node must read them in the phone's zone, which `date` (Android's libc) knows. */
async function timeZoneMismatch(run: CommandRunner, timeoutMs: number): Promise<string | undefined> {
  const result = await run('date', ['+%z'], { timeoutMs });
  const match = result.kind === 'exited' && result.code === 0 ? /^([+-])(\d{2})(\d{2})$/.exec(result.stdout.trim()) : null;
  if (!match) return undefined;
  const phoneMinutes = (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3]));
  const nodeMinutes = -new Date().getTimezoneOffset();
  if (phoneMinutes === nodeMinutes) return undefined;
  return `Node's time zone (UTC${offset(nodeMinutes)}) is not the phone's (UTC${offset(phoneMinutes)}): start the worker with TZ=$(getprop persist.sys.timezone), or reply times will be off`;
}

function offset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const absolute = Math.abs(minutes);
  return `${sign}${String(Math.floor(absolute / 60)).padStart(2, '0')}:${String(absolute % 60).padStart(2, '0')}`;
}
