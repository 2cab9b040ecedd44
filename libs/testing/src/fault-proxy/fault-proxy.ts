import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
// The build (swc) turns the .mjs into a .js beside this file's own output.
const SERVER_PROGRAM = ['fault-proxy-server.mjs', 'fault-proxy-server.js'].map((file) => join(HERE, file)).find((path) => existsSync(path));

export type ProxyFault =
  /** Every chunk, both directions, delayed by mean ± jitter (uniform); order kept per direction. */
  | { kind: 'latency'; meanMs: number; jitterMs: number }
  /** Open connections swallow bytes both ways for good, as behind a dropped NAT mapping: no FIN, no RST, even after heal. New connections during the fault are accepted and equally dead. */
  | { kind: 'silent' }
  /** One shot: every open connection is reset now (RST to the client); new ones pass through. */
  | { kind: 'reset' }
  /** New connections get ECONNREFUSED until heal; open ones are untouched. */
  | { kind: 'refuse' };

export interface ProxyUpstream {
  host: string;
  port: number;
}

interface Reply {
  id?: number;
  ready?: true;
  result?: unknown;
  error?: string;
}

/** TCP proxies on 127.0.0.1 that go silent, slow, reset or refuse on command; they run in a child process of their own. */
export class FaultProxies {
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();

  private constructor(private readonly child: ChildProcess) {
    child.on('message', (reply: Reply) => {
      const request = reply.id === undefined ? undefined : this.pending.get(reply.id);
      if (!request || reply.id === undefined) return;
      this.pending.delete(reply.id);
      this.holdOpen();
      if (reply.error !== undefined) request.reject(new Error(`fault proxy: ${reply.error}`));
      else request.resolve(reply.result);
    });
    child.on('exit', (code, signal) => {
      for (const { reject } of this.pending.values()) reject(new Error(`fault proxy process exited (${signal ?? code})`));
      this.pending.clear();
    });
    this.holdOpen();
  }

  static async start(): Promise<FaultProxies> {
    if (!SERVER_PROGRAM) throw new Error(`fault-proxy-server.mjs is not beside ${HERE}`);
    const child = fork(SERVER_PROGRAM, [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    await new Promise<void>((resolve, reject) => {
      const exited = (code: number | null, signal: NodeJS.Signals | null) => reject(new Error(`fault proxy process exited before it was ready (${signal ?? code})`));
      child.once('error', reject);
      child.once('exit', exited);
      child.once('message', () => {
        child.off('error', reject);
        child.off('exit', exited);
        resolve();
      });
    });
    return new FaultProxies(child);
  }

  /** A proxy named `name` in front of `upstream`; its port on 127.0.0.1. */
  add(name: string, upstream: ProxyUpstream): Promise<number> {
    return this.request('add', { name, upstream });
  }

  fault(name: string, fault: ProxyFault): Promise<void> {
    return this.request('fault', { name, fault });
  }

  /** Pass-through again for new connections, and without delay for open ones; silenced connections stay dead. */
  heal(name: string): Promise<void> {
    return this.request('heal', { name });
  }

  /** Client connections not yet closed or half-closed by their client, silenced ones included. */
  connections(name: string): Promise<number> {
    return this.request('connections', { name });
  }

  /** Ends the child process, and with it every proxy and connection. */
  async close(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.ref();
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGKILL');
    await exited;
  }

  /** Closes one proxy: its port, and every connection through it (a silenced one's client then sees it close). */
  remove(name: string): Promise<void> {
    return this.request('remove', { name });
  }

  private request<T>(command: string, options: Record<string, unknown>): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: (result) => resolve(result as T), reject });
      this.holdOpen();
      this.child.send({ id, command, ...options }, (error) => {
        if (!error) return;
        this.pending.delete(id);
        this.holdOpen();
        reject(error);
      });
    });
  }

  /** Keeps this process alive only while it awaits an answer, so that forgetting close() never holds a test run open. */
  private holdOpen(): void {
    const awaiting = this.pending.size > 0;
    for (const handle of [this.child, this.child.channel]) {
      if (awaiting) handle?.ref();
      else handle?.unref();
    }
  }
}

/** `postgresql://u:p@host:5432/db?x` → the same URL with host 127.0.0.1 and `port` (postgres, amqp and redis URLs alike). */
export function throughProxy(url: string, port: number): string {
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(port);
  return proxied.toString();
}
