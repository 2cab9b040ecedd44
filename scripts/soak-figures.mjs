// `node scripts/soak-figures.mjs [figures.json [doc.md]]`: writes the soak's figures (docs/soak-last-run.json
// by default) into docs/reliability.md, between its "soak figures" markers, as the tables of the
// "30-minute soak" section. Nothing else in the file changes.
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { root } from './lib/workspace.mjs';

const file = process.argv[2] ?? join(root, 'docs', 'soak-last-run.json');
const doc = process.argv[3] ?? join(root, 'docs', 'reliability.md');
const figures = JSON.parse(readFileSync(file, 'utf8'));
const BEGIN = '<!-- soak figures: begin (scripts/soak-figures.mjs) -->';
const END = '<!-- soak figures: end -->';

const seconds = (ms) => (ms === null || ms === undefined ? '—' : `${(ms / 1000).toFixed(1)} s`);
const clock = (at) => (at === null || at === undefined ? '—' : new Date(at).toISOString().slice(11, 19));
const count = (n) => n.toLocaleString('en-US');
const signed = (pct) => `${pct >= 0 ? '+' : ''}${pct}`;
const answers = (kind) => Object.entries(figures.chaos.answers[kind] ?? {}).map(([status, n]) => `${status}: ${count(n)}`).join(', ');

const lines = [
  `Run of ${figures.startedAt.slice(0, 16).replace('T', ' ')} UTC: ${figures.minutes} minutes, a fault every ${figures.faultEveryS} s,`,
  `${figures.chaos.durationS} s in all with setting up and settling. **Verdict: ${figures.verdict.pass ? 'PASS' : 'FAIL'}**` +
    (figures.verdict.failures.length > 0 ? ` (${figures.verdict.failures.length} failure(s) below).` : '.'),
  '',
  '| requests | sent | answers |',
  '|---|---|---|',
  ...Object.entries(figures.chaos.requestsSent).map(([kind, n]) => `| ${kind} | ${count(n)} | ${answers(kind)} |`),
  '',
  `Webhook receiver: ${count(figures.webhooks.accepted)} deliveries accepted, ${count(figures.webhooks.refused)} refused with 500, ` +
    `${count(figures.webhooks.distinctEvents)} distinct events. Tasks at the end: ` +
    `${Object.entries(figures.chaos.tasks).map(([status, n]) => `${status} ${count(n)}`).join(', ')}. ` +
    `Violations of the chaos invariants: **${figures.chaos.violations.length}**.`,
  '',
  `Create-task probe: one every ${figures.probe.everyMs} ms, ${count(figures.probe.answers)} answers (${figures.probe.notCreated} not 201); ` +
    `quiet p99 **${figures.quiet.p99Ms ?? '—'} ms** over ${count(figures.quiet.answers)} answers (its rolling p99 kept to at most ${figures.quiet.rollingP99MaxMs ?? '—'} ms while quiet). Each fault is held to the higher of the quiet p99 and the p99 of the spell before it; back means a window of at least ${figures.rules.p99AtLeast} answers with at most ${figures.rules.slowAtMost} slower.`,
  '',
  ...(figures.cpuBusyPct ? [`The machine's two cores were ${figures.cpuBusyPct.quiet ?? '—'} % busy in the quiet phase's judged part and ${figures.cpuBusyPct.run ?? '—'} % over the whole run (from /proc/stat).`, ''] : []),
  '| fault | from – to (UTC) | every service ready after | p99 before it | held to | p99 back under it after |',
  '|---|---|---|---|---|---|',
  ...figures.faults.map((fault) => `| ${fault.fault} | ${clock(fault.startedAt)} – ${clock(fault.endedAt)} | ${seconds(fault.readyInMs)} | ${fault.beforeP99Ms ?? '—'} ms | ${fault.boundMs ?? '—'} ms | ${fault.p99BackInMs === null ? '**not within 30 s**' : `${seconds(fault.p99BackInMs)} (p99 ${fault.p99AtBackMs} ms, ${fault.slowAtBack} slower)`} |`),
  '',
  `Memory over ${clock(figures.memory.from)} – ${clock(figures.memory.to)} UTC: a least-squares line, at the window's start → its end, through the heap each major GC left (RSS, through each minute's lowest sample, where a process had fewer than 3 major GCs), and the RSS line beside it:`,
  '',
  '| process | judged on | MB | growth | RSS (MB) | RSS growth |',
  '|---|---|---|---|---|---|',
  ...figures.memory.processes.map((one) =>
    one.growthPct === null
      ? `| ${one.process} | — | — | not judged: ${one.notJudged} | — | — |`
      : `| ${one.process} | ${one.judgedOn ?? 'RSS'}${one.majorGcs === undefined ? '' : ` (${one.majorGcs} major GCs)`} | ${one.firstMb} → ${one.lastMb} | ${signed(one.growthPct)} % | ${one.rss ? `${one.rss.firstMb} → ${one.rss.lastMb}` : '—'} | ${one.rss ? `${signed(one.rss.growthPct)} %` : '—'} |`,
  ),
  '',
  '| table | oldest row retention should have removed | limit | rows not done with, median, first → second half of the window | all rows, most, first → second half | rows at the end |',
  '|---|---|---|---|---|---|',
  ...figures.tables.map((table) => `| \`${table.table}\` | ${table.oldestS === null ? 'none' : `${table.oldestS} s`} | ${table.limitS} s | ${table.notDoneFirstHalfMedian ?? '—'} → ${table.notDoneSecondHalfMedian ?? '—'} | ${table.firstHalfMax ?? '—'} → ${table.secondHalfMax ?? '—'} | ${table.endCount ?? '—'} |`),
  '',
  ...(figures.series.databaseMb?.length ? [`Database size: ${figures.series.databaseMb[0][1]} MB at the first sample, ${figures.series.databaseMb.at(-1)[1]} MB at the last.`, ''] : []),
  ...(figures.verdict.failures.length > 0 ? ['Failures:', '', ...figures.verdict.failures.map((failure) => `- ${failure}`), ''] : []),
  `![memory and p99 of create-task over the soak](${basename(file).replace(/\.json$/, '.svg')})`,
];

const text = readFileSync(doc, 'utf8');
const from = text.indexOf(BEGIN);
const to = text.indexOf(END);
if (from < 0 || to < from) throw new Error(`${doc} has no "${BEGIN}" … "${END}" block`);
writeFileSync(doc, `${text.slice(0, from + BEGIN.length)}\n${lines.join('\n')}\n${text.slice(to)}`);
console.log(`${doc}: the soak's figures from ${file}`);
