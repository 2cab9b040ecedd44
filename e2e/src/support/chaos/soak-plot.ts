import type { SoakFigures } from './soak-verdict.js';

const WIDTH = 960;
const PANEL = 260;
const LEFT = 60;
const RIGHT = 170;
const TOP = 40;
const GAP = 50;

const SERVICE_COLOURS: Record<string, string> = {
  'api-gateway': '#1f77b4',
  billing: '#ff7f0e',
  dispatch: '#2ca02c',
  inbox: '#d62728',
  dashboard: '#9467bd',
  worker: '#8c564b',
  'gateway-sim': '#7f7f7f',
};

const FAULT_COLOURS: Array<[string, string]> = [
  ['SIGKILL', '#d62728'],
  ['restart', '#ff7f0e'],
  ['silence', '#9467bd'],
  ['latency', '#1f77b4'],
  ['reset', '#7f7f7f'],
];

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const faultColour = (fault: string) => FAULT_COLOURS.find(([kind]) => fault.startsWith(kind) || fault.includes(` ${kind}`))?.[1] ?? '#bbbbbb';

/** Round steps for an axis from 0 to `max`. */
function ticks(max: number): number[] {
  const raw = max / 5;
  const magnitude = 10 ** Math.floor(Math.log10(raw || 1));
  const step = [1, 2, 5, 10].map((factor) => factor * magnitude).find((candidate) => candidate >= raw) ?? raw;
  return Array.from({ length: Math.floor(max / step) + 1 }, (_, index) => index * step);
}

/**
 * The soak's plot, self-contained SVG: resident memory of every process over time (the window
 * memory is judged over shaded), and the probe's rolling p99 of create-task with its quiet p99;
 * each fault a band from its start to its end in both.
 */
export function soakPlot(figures: SoakFigures): string {
  const start = figures.loadStartedAt;
  const end = figures.memory.to;
  const plotWidth = WIDTH - LEFT - RIGHT;
  const x = (at: number) => LEFT + ((at - start) / (end - start)) * plotWidth;
  const out: string[] = [];
  const height = TOP + 2 * PANEL + GAP + 50;
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif" font-size="11">`);
  out.push(`<rect width="${WIDTH}" height="${height}" fill="white"/>`);
  out.push(`<text x="${LEFT}" y="18" font-size="14">${escape(`smsq soak of ${figures.startedAt}: ${figures.minutes} min, a fault every ${figures.faultEveryS} s — ${figures.verdict.pass ? 'PASS' : 'FAIL'}`)}</text>`);

  const panel = (top: number, title: string, max: number, unit: string) => {
    out.push(`<text x="${LEFT}" y="${top - 6}" font-size="12">${escape(title)}</text>`);
    for (const fault of figures.faults) {
      if (fault.startedAt === null) continue;
      const from = x(fault.startedAt);
      const to = Math.max(from + 2, x(fault.endedAt ?? fault.startedAt));
      out.push(`<rect x="${from.toFixed(1)}" y="${top}" width="${(to - from).toFixed(1)}" height="${PANEL}" fill="${faultColour(fault.fault)}" fill-opacity="0.18"><title>${escape(fault.fault)}</title></rect>`);
    }
    for (const value of ticks(max)) {
      const y = top + PANEL - (value / max) * PANEL;
      out.push(`<line x1="${LEFT}" x2="${LEFT + plotWidth}" y1="${y.toFixed(1)}" y2="${y.toFixed(1)}" stroke="#eeeeee"/>`);
      out.push(`<text x="${LEFT - 4}" y="${(y + 4).toFixed(1)}" text-anchor="end">${value}${unit}</text>`);
    }
    for (let minute = 0; start + minute * 60_000 <= end; minute += figures.minutes > 10 ? 5 : 1) {
      const at = x(start + minute * 60_000);
      out.push(`<line x1="${at.toFixed(1)}" x2="${at.toFixed(1)}" y1="${top + PANEL}" y2="${top + PANEL + 4}" stroke="black"/>`);
      out.push(`<text x="${at.toFixed(1)}" y="${top + PANEL + 15}" text-anchor="middle">${minute} min</text>`);
    }
    out.push(`<rect x="${LEFT}" y="${top}" width="${plotWidth}" height="${PANEL}" fill="none" stroke="black"/>`);
  };
  const line = (points: Array<[number, number]>, top: number, max: number, colour: string, dashed: boolean, label: string) => {
    if (points.length === 0) return;
    const path = points.map(([at, value], index) => `${index === 0 ? 'M' : 'L'}${x(at).toFixed(1)},${(top + PANEL - (Math.min(value, max) / max) * PANEL).toFixed(1)}`).join(' ');
    out.push(`<path d="${path}" fill="none" stroke="${colour}" stroke-width="1.3"${dashed ? ' stroke-dasharray="4 3"' : ''}><title>${escape(label)}</title></path>`);
  };

  // Resident memory.
  const rssTop = TOP + 20;
  const rss = Object.entries(figures.series.rssMb);
  const rssMax = Math.max(50, ...rss.flatMap(([, points]) => points!.map(([, mb]) => mb))) * 1.1;
  panel(rssTop, 'resident memory (MB) per process; the bar along the top: the window memory is judged over', rssMax, '');
  out.push(`<rect x="${x(figures.memory.from).toFixed(1)}" y="${rssTop}" width="${(x(figures.memory.to) - x(figures.memory.from)).toFixed(1)}" height="6" fill="#444444"/>`);
  for (const [process, points] of rss) line(points!, rssTop, rssMax, SERVICE_COLOURS[process.split('#')[0]!] ?? 'black', process.includes('#2'), process);
  Object.entries(SERVICE_COLOURS).forEach(([service, colour], index) => {
    const y = rssTop + 12 + index * 16;
    out.push(`<line x1="${LEFT + plotWidth + 10}" x2="${LEFT + plotWidth + 30}" y1="${y}" y2="${y}" stroke="${colour}" stroke-width="2"/><text x="${LEFT + plotWidth + 35}" y="${y + 4}">${service}</text>`);
  });
  out.push(`<text x="${LEFT + plotWidth + 10}" y="${rssTop + 12 + 7 * 16 + 4}">dashed: second copy</text>`);

  // The probe's p99.
  const p99Top = rssTop + PANEL + GAP;
  const quiet = figures.quiet.p99Ms;
  const values = figures.series.p99Ms.map(([, ms]) => ms).filter((ms): ms is number => ms !== null);
  const p99Max = Math.min(Math.max(quiet ?? 0, ...values) * 1.1, Math.max((quiet ?? 100) * 10, 100)) || 100;
  panel(p99Top, `create-task p99 (ms) over the last ${figures.rules.p99WindowMs / 1000} s of the probe; dashed: its quiet p99; red ticks: more than 1 % not 201`, p99Max, '');
  if (quiet !== null) {
    const y = p99Top + PANEL - (quiet / p99Max) * PANEL;
    out.push(`<line x1="${LEFT}" x2="${LEFT + plotWidth}" y1="${y.toFixed(1)}" y2="${y.toFixed(1)}" stroke="black" stroke-dasharray="6 4"/>`);
  }
  let run: Array<[number, number]> = [];
  for (const [at, ms] of figures.series.p99Ms) {
    if (ms === null) {
      line(run, p99Top, p99Max, '#1f77b4', false, 'p99');
      run = [];
      out.push(`<line x1="${x(at).toFixed(1)}" x2="${x(at).toFixed(1)}" y1="${p99Top}" y2="${p99Top + 8}" stroke="#d62728" stroke-width="2"/>`);
    } else run.push([at, ms]);
  }
  line(run, p99Top, p99Max, '#1f77b4', false, 'p99');
  FAULT_COLOURS.forEach(([kind, colour], index) => {
    const y = p99Top + 12 + index * 16;
    out.push(`<rect x="${LEFT + plotWidth + 10}" y="${y - 6}" width="20" height="10" fill="${colour}" fill-opacity="0.3"/><text x="${LEFT + plotWidth + 35}" y="${y + 3}">${kind}</text>`);
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
