import { spawn } from 'node:child_process';

/** One run of a Termux:API program: what to write on its standard input and how long to wait. */
export interface CommandRequest {
  /** Written to standard input, which is then closed; without it standard input is empty. */
  input?: string;
  timeoutMs: number;
  /** Aborting kills the program; leave it out where killing could leave an SMS half handed over. */
  signal?: AbortSignal;
}

export type CommandResult =
  | { kind: 'exited'; code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }
  /** Still running at the timeout, so it was killed with everything it started. */
  | { kind: 'timed-out'; stdout: string; stderr: string }
  | { kind: 'aborted' }
  /** Never ran: `reason` is the error code (`ENOENT` when it is not on PATH). */
  | { kind: 'not-started'; reason: string };

/** Runs `program` (looked up on PATH, never through a shell) with `args`; never rejects. */
export type CommandRunner = (program: string, args: readonly string[], request: CommandRequest) => Promise<CommandResult>;

const OUTPUT_LIMIT = 1024 * 1024;

/** The runner the worker uses: `spawn` with an argument array; tests pass an env whose PATH leads to stand-ins. */
export function createCommandRunner(env: NodeJS.ProcessEnv = process.env): CommandRunner {
  return (program, args, { input, timeoutMs, signal }) =>
    new Promise((resolve) => {
      if (signal?.aborted) return resolve({ kind: 'aborted' });
      // A process group of its own: the termux-* scripts are shells that start `termux-api`, which is what hangs.
      const child = spawn(program, args, { env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      let settled = false;

      const finish = (result: CommandResult): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        resolve(result);
      };
      const killAll = (): void => {
        if (child.pid === undefined) return;
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          child.kill('SIGKILL');
        }
      };
      const onAbort = (): void => {
        killAll();
        finish({ kind: 'aborted' });
      };
      const timer = setTimeout(() => {
        killAll();
        finish({ kind: 'timed-out', stdout, stderr });
      }, timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });

      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        if (stdout.length < OUTPUT_LIMIT) stdout += chunk;
      });
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        if (stderr.length < OUTPUT_LIMIT) stderr += chunk;
      });
      child.on('error', (error: NodeJS.ErrnoException) => {
        if (child.pid === undefined) finish({ kind: 'not-started', reason: error.code ?? error.message });
      });
      child.on('close', (code, exitSignal) => finish({ kind: 'exited', code, signal: exitSignal, stdout, stderr }));
      // A program that exits without reading its input must not crash the worker with EPIPE.
      child.stdin.on('error', () => undefined);
      child.stdin.end(input ?? '', 'utf8');
    });
}
