import { spawnSync } from 'node:child_process';
import { parse } from 'yaml';

/** One service of a resolved compose file, as `docker compose config` prints it (the fields the checks read). */
export interface ResolvedService {
  image?: string;
  build?: unknown;
  restart?: string;
  hostname?: string;
  command?: string[];
  entrypoint?: string[];
  environment?: Record<string, string | null>;
  ports?: (string | { target: number | string; published?: number | string; protocol?: string; host_ip?: string })[];
  volumes?: (string | { type?: string; source?: string; target: string; read_only?: boolean })[];
  healthcheck?: { test?: string[] | string; disable?: boolean };
  network_mode?: string;
  depends_on?: Record<string, { condition?: string }> | string[];
}

export interface ResolvedCompose {
  services: Record<string, ResolvedService>;
  volumes?: Record<string, unknown>;
}

/** A published port, whatever syntax and Compose version printed it. */
export interface PublishedPort {
  target: number;
  published: string;
  protocol: string;
  hostIp: string | undefined;
}

/**
 * The Compose command here: the `docker compose` plugin (Docker Compose v2, what users run), else
 * the standalone `docker-compose` (Debian and Ubuntu package it: v1, which resolves the same
 * files). Neither: the checks fail, saying what to install; they never skip.
 */
let found: string[] | undefined;

export function composeCommand(): string[] {
  found ??= findComposeCommand();
  return found;
}

function findComposeCommand(): string[] {
  if (spawnSync('docker', ['compose', 'version'], { stdio: 'ignore' }).status === 0) return ['docker', 'compose'];
  if (spawnSync('docker-compose', ['version'], { stdio: 'ignore' }).status === 0) return ['docker-compose'];
  throw new Error(
    'checking the compose files needs Docker Compose, and neither `docker compose` (the Docker CLI plugin) nor `docker-compose` answers here: ' +
      'install Docker with its compose plugin (https://docs.docker.com/compose/install/), or on Debian and Ubuntu `apt-get install docker-compose` (`npm test` does that by itself where it runs as root). No Docker engine is needed.',
  );
}

/** `docker compose -f FILE [--env-file ENV] config`: the file as Compose resolves it; no engine needed. Throws with Compose's message when it refuses the file. */
export function resolveCompose(file: string, options: { envFile?: string; env?: Record<string, string> } = {}): ResolvedCompose {
  const [command, ...prefix] = composeCommand();
  const args = [...prefix, '-f', file, ...(options.envFile ? ['--env-file', options.envFile] : []), 'config'];
  // Only what the files and the env file say: variables of the test's own environment must not fill the gaps.
  const env: Record<string, string> = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: process.env['HOME'] ?? '/tmp', ...options.env };
  const run = spawnSync(command!, args, { encoding: 'utf8', env, maxBuffer: 16 * 1024 * 1024 });
  if (run.error) throw run.error;
  if (run.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${run.stderr.trim()}`);
  return parse(run.stdout) as ResolvedCompose;
}

export function publishedPorts(service: ResolvedService): PublishedPort[] {
  return (service.ports ?? []).map((port) => {
    if (typeof port === 'string') {
      const match = /^(?:(?:(.+):)?(\d+):)?(\d+)(?:\/(tcp|udp))?$/.exec(port);
      if (!match) throw new Error(`a port Compose printed that the checks cannot read: ${port}`);
      return { hostIp: match[1], published: match[2] ?? '', target: Number(match[3]), protocol: match[4] ?? 'tcp' };
    }
    return { target: Number(port.target), published: port.published === undefined ? '' : String(port.published), protocol: port.protocol ?? 'tcp', hostIp: port.host_ip };
  });
}

/** The service's mounts as `source:target`, whatever syntax printed them. */
export function mounts(service: ResolvedService): { source: string; target: string; readOnly: boolean }[] {
  return (service.volumes ?? []).map((volume) => {
    if (typeof volume !== 'string') return { source: volume.source ?? '', target: volume.target, readOnly: volume.read_only === true };
    const [source, target, mode] = volume.split(':');
    return { source: source!, target: target!, readOnly: (mode ?? '').split(',').includes('ro') };
  });
}

/** The environment as name → value; Compose prints a variable without a value as null. */
export function environmentOf(service: ResolvedService): Record<string, string> {
  return Object.fromEntries(Object.entries(service.environment ?? {}).map(([name, value]) => [name, value ?? '']));
}
