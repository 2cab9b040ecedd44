import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface SelfTime {
  name: string;
  ms: number;
  share: number;
}

export interface ProfileSummary {
  service: string;
  totalMs: number;
  /** Share of the samples the process was busy (not idle). */
  busyShare: number;
  topFunctions: SelfTime[];
  byPackage: SelfTime[];
}

/** Where a function lives: the npm package, the smsq project, Node itself, or V8's own buckets. */
function packageOf(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node (core)';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const [first, second] = url.slice(modules + 'node_modules/'.length).split('/');
    return first?.startsWith('@') ? `${first}/${second}` : (first ?? url);
  }
  const project = /\/(apps|libs)\/([^/]+)\//.exec(url);
  return project ? `smsq ${project[1]}/${project[2]}` : url;
}

function shortUrl(url: string): string {
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) return url.slice(modules + 'node_modules/'.length);
  const project = /\/((?:apps|libs)\/.*)$/.exec(url);
  return project?.[1] ?? url.replace(/^file:\/\//, '');
}

function top(totals: Map<string, number>, all: number, count: number): SelfTime[] {
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, us]) => ({ name, ms: Math.round(us / 1000), share: Math.round((us / all) * 1000) / 10 }));
}

/** Self time per function and per package of one or more V8 CPU profiles of a service. */
export function summariseProfiles(service: string, files: string[], count = 25): ProfileSummary {
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  let total = 0;
  let idle = 0;
  for (const file of files) {
    const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
    const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
    profile.samples.forEach((id, index) => {
      const us = profile.timeDeltas[index] ?? 0;
      const frame = nodes.get(id)?.callFrame;
      if (!frame) return;
      total += us;
      if (frame.functionName === '(idle)') {
        idle += us;
        return;
      }
      const name = `${frame.functionName || '(anonymous)'} ${frame.url ? `${shortUrl(frame.url)}:${frame.lineNumber + 1}` : ''}`.trim();
      byFunction.set(name, (byFunction.get(name) ?? 0) + us);
      const pkg = packageOf(frame.url, frame.functionName);
      byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + us);
    });
  }
  const busy = total - idle;
  return {
    service,
    totalMs: Math.round(total / 1000),
    busyShare: total === 0 ? 0 : Math.round((busy / total) * 1000) / 10,
    topFunctions: top(byFunction, busy, count),
    byPackage: top(byPackage, busy, count),
  };
}

/** The summaries of every service that wrote profiles under `dir/<service>/`. */
export function summariseProfileDir(dir: string, count = 25): ProfileSummary[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((service) => {
    const files = readdirSync(join(dir, service))
      .filter((name) => name.endsWith('.cpuprofile'))
      .map((name) => join(dir, service, name));
    return files.length === 0 ? [] : [summariseProfiles(service, files, count)];
  });
}

export function formatProfile(summary: ProfileSummary, rows = 15): string {
  const table = (title: string, entries: SelfTime[]) => [`  ${title}`, ...entries.slice(0, rows).map((e) => `    ${e.share.toFixed(1).padStart(5)} %  ${String(e.ms).padStart(7)} ms  ${e.name}`)];
  return [
    `${summary.service}: ${summary.totalMs} ms profiled, busy ${summary.busyShare} %`,
    ...table('self time by package (share of busy time)', summary.byPackage),
    ...table('self time by function', summary.topFunctions),
  ].join('\n');
}
