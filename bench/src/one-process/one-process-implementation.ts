import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cpuMsOf, residentMbOf } from '../process-usage.js';

const READY_WITHIN_MS = 30_000;

/** The one-process implementation of create-task and of a worker's claim and report (one-process-server.ts), running as a child process of the bench. */
export class OneProcessImplementation {
  private constructor(
    private readonly child: ChildProcess,
    readonly baseUrl: string,
    private readonly output: string[],
  ) {}

  /** Starts it on a free port against the bench database, for the given clients' API keys. */
  static start(databaseUrl: string, clientIds: number[]): Promise<OneProcessImplementation> {
    const child = fork(fileURLToPath(new URL('./one-process-server.js', import.meta.url)), [], {
      env: { ...process.env, NODE_ENV: 'production', DATABASE_URL: databaseUrl, ONE_PROCESS_CLIENT_IDS: clientIds.join(',') },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    const output: string[] = [];
    const keep = (chunk: Buffer) => {
      output.push(chunk.toString('utf8'));
      if (output.length > 200) output.splice(0, output.length - 200);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    return new Promise((resolve, reject) => {
      const failed = (reason: string) => {
        clearTimeout(timer);
        child.kill('SIGKILL');
        reject(new Error(`the one-process implementation ${reason}\n${output.join('').slice(-4000)}`));
      };
      const timer = setTimeout(() => failed(`did not listen within ${READY_WITHIN_MS} ms`), READY_WITHIN_MS);
      child.once('exit', (code) => failed(`stopped (exit ${code}) before it listened`));
      child.once('message', (ready: { port: number; keys: number }) => {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        if (ready.keys !== clientIds.length) return failed(`found ${ready.keys} API keys for ${clientIds.length} clients`);
        resolve(new OneProcessImplementation(child, `http://127.0.0.1:${ready.port}`, output));
      });
    });
  }

  cpuMs(): number {
    return cpuMsOf(this.child.pid!);
  }

  residentMb(): number {
    return residentMbOf(this.child.pid!);
  }

  /** What it printed last (it prints only failures). */
  recentOutput(): string {
    return this.output.join('').slice(-4000);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    const stubborn = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(stubborn);
  }
}
