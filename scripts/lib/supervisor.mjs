// Runs the services as child processes in one terminal: prefixed logs, restart with back-off
// when one dies on its own or its /healthz asks for it (Kubernetes' liveness probe, here), and
// SIGTERM to all of them (then SIGKILL after a grace period) on stop. A service that exits before
// it was ever ready is restarted only when `beforeRestart` says so (npm start: the servers it needs
// are all there); otherwise everything stops, exit code 1, rather than a restart loop that cannot
// succeed.
//
// Each child runs in a process group of its own, so the terminal's Ctrl-C reaches only this
// supervisor, which passes one SIGTERM on: one stop, one drain. npm passes the same Ctrl-C on a
// second time, so a signal within a second of the first is the same stop; a later one is the
// user insisting, and each service, signalled again, exits at once without finishing.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const COLOURS = [36, 35, 33, 32, 34, 31, 96, 95];
const SAME_STOP_MS = 1_000;
/** As Kubernetes probes by default: every few seconds, a restart after three failures in a row. */
const HEALTH_PERIOD_MS = Number(process.env.SMSQ_SUPERVISOR_HEALTH_PERIOD_MS ?? 5_000);
const HEALTH_TIMEOUT_MS = 3_000;
const HEALTH_FAILURES = 3;

export class Supervisor {
  #children = new Map();
  #stopping = false;
  #stopSince = 0;
  /** The one `beforeRestart` under way, which children exiting together share. */
  #asking;

  /**
   * `beforeRestart`: asked (once at a time) when a child with health addresses exits before they
   * ever all answered 200; it answers whether to restart it, and says why not itself.
   */
  constructor({ cwd, env, colour = process.stdout.isTTY, log = (line) => process.stdout.write(`${line}\n`), beforeRestart }) {
    this.cwd = cwd;
    this.env = env;
    this.colour = colour;
    this.log = log;
    this.beforeRestart = beforeRestart;
    // Children in their own groups outlive a supervisor that dies; one that exits takes them along.
    process.on('exit', () => {
      for (const entry of this.#children.values()) entry.child?.kill('SIGTERM');
    });
  }

  /** `healthUrls`: the child's /healthz addresses (one per service it runs), watched once it has answered. */
  start(name, args, extraEnv = {}, { healthUrls = [] } = {}) {
    const index = this.#children.size;
    const entry = { name, args, extraEnv, healthUrls, restarts: 0, colour: COLOURS[index % COLOURS.length] };
    this.#children.set(name, entry);
    this.#spawn(entry);
    if (healthUrls.length > 0) this.#watchHealth(entry);
  }

  #watchHealth(entry) {
    const look = async () => {
      const child = entry.child;
      if (!child || this.#stopping) return;
      const answers = await Promise.all(entry.healthUrls.map((url) => fetch(url, { signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) }).then((response) => response.status, (error) => (error.name === 'TimeoutError' ? 'no answer' : 'refused'))));
      if (child !== entry.child) return;
      // Refused: not listening yet (starting) or already gone (its exit restarts it).
      if (answers.every((answer) => answer === 200 || answer === 'refused')) {
        if (answers.every((answer) => answer === 200)) entry.answered = entry.wasReady = true;
        entry.healthFailures = 0;
        return;
      }
      if (!entry.answered) return;
      entry.healthFailures = (entry.healthFailures ?? 0) + 1;
      if (entry.healthFailures < HEALTH_FAILURES) return;
      entry.healthFailures = 0;
      entry.answered = false;
      this.#write(entry, `unhealthy (/healthz: ${answers.join(', ')}); restarting it`);
      child.kill('SIGTERM');
      setTimeout(() => child.exitCode === null && child.signalCode === null && child.kill('SIGKILL'), 10_000).unref();
    };
    // One look at a time: an answer can take longer than the period on a busy machine, and looks
    // started meanwhile would pile requests on a service already slow to answer, and keep asking one
    // whose third failure is about to restart it.
    let looking = false;
    setInterval(() => {
      if (looking) return;
      looking = true;
      void look().finally(() => (looking = false));
    }, HEALTH_PERIOD_MS).unref();
  }

  #prefix(entry) {
    const label = entry.name.padEnd(11);
    return this.colour ? `\u001b[${entry.colour}m${label}|\u001b[0m ` : `${label}| `;
  }

  #write(entry, line) {
    process.stdout.write(`${this.#prefix(entry)}${line}\n`);
  }

  #spawn(entry) {
    const child = spawn(process.execPath, entry.args, { cwd: this.cwd, env: { ...this.env, ...entry.extraEnv }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    entry.child = child;
    entry.startedAt = Date.now();
    const prefix = this.#prefix(entry);
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => process.stdout.write(`${prefix}${line}\n`));
    }
    child.on('exit', async (code, signal) => {
      entry.child = undefined;
      if (this.#stopping) return;
      if (code === 78) {
        process.stdout.write(`${prefix}stopped: its configuration is invalid (see above)\n`);
        return void this.stop(1);
      }
      if (!entry.wasReady && entry.healthUrls.length > 0 && this.beforeRestart) {
        this.#asking ??= Promise.resolve()
          .then(() => this.beforeRestart())
          .catch(() => true)
          .finally(() => (this.#asking = undefined));
        const restart = await this.#asking;
        if (this.#stopping) return;
        if (!restart) {
          process.stdout.write(`${prefix}exited (${signal ?? `code ${code}`}) before it was ready; not restarted (see above)\n`);
          return void this.stop(1);
        }
      }
      // A service that stayed up a while was healthy: start its back-off afresh.
      if (Date.now() - entry.startedAt > 30_000) entry.restarts = 0;
      const delay = Math.min(30_000, 500 * 2 ** entry.restarts++);
      process.stdout.write(`${prefix}exited (${signal ?? `code ${code}`}); restarting in ${delay} ms\n`);
      // Not unref'd: with its only child gone, the supervisor must still be there to restart it.
      setTimeout(() => !this.#stopping && this.#spawn(entry), delay);
    });
  }

  async stop(exitCode = 0) {
    if (this.#stopping) {
      if (Date.now() - this.#stopSince > SAME_STOP_MS) {
        this.log('stopping at once, without finishing');
        for (const entry of this.#children.values()) entry.child?.kill('SIGTERM');
      }
      return;
    }
    this.#stopping = true;
    this.#stopSince = Date.now();
    this.log('stopping: each service finishes what it has in hand (Ctrl-C again stops at once)');
    const running = [...this.#children.values()].filter((entry) => entry.child);
    await Promise.all(
      running.map(
        (entry) =>
          new Promise((resolve) => {
            // Long polls and in-flight deliveries get time to finish before the hard stop.
            const kill = setTimeout(() => entry.child?.kill('SIGKILL'), 35_000);
            entry.child.once('exit', () => {
              clearTimeout(kill);
              resolve();
            });
            entry.child.kill('SIGTERM');
          }),
      ),
    );
    process.exit(exitCode);
  }
}
