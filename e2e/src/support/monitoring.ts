import parsePrometheusTextFormat, { type PrometheusFamily } from 'parse-prometheus-text-format';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';

export type { PrometheusFamily } from 'parse-prometheus-text-format';

export const MONITORING_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'deploy', 'monitoring');
export const DASHBOARD_FILE = join(MONITORING_DIR, 'grafana', 'dashboards', 'smsq.json');
export const ALERTS_FILE = join(MONITORING_DIR, 'prometheus', 'alerts.yml');
export const PROMETHEUS_FILE = join(MONITORING_DIR, 'prometheus', 'prometheus.yml');

/** A service's /metrics, read as Prometheus reads it. */
export async function scrape(metricsUrl: string): Promise<PrometheusFamily[]> {
  return parsePrometheusTextFormat(await scrapeText(metricsUrl));
}

export async function scrapeText(metricsUrl: string): Promise<string> {
  const response = await fetch(metricsUrl);
  if (!response.ok) throw new Error(`${metricsUrl} answered ${response.status}`);
  return response.text();
}

/**
 * The labels of each series of a histogram, from its `_count` samples. The parser folds a
 * histogram's series into one without labels (it handles only unlabelled histograms), so the
 * `_count` lines are parsed alone, as an untyped metric (ending in a newline, or it drops the last).
 */
export function histogramSeriesLabels(text: string, histogram: string): Array<Record<string, string>> {
  const counts = text.split('\n').filter((line) => line.startsWith(`${histogram}_count{`) || line.startsWith(`${histogram}_count `));
  return parsePrometheusTextFormat(`${counts.join('\n')}\n`).flatMap((family) => family.metrics.map((sample) => sample.labels ?? {}));
}

/** The smsq series a PromQL expression reads (Prometheus's own, like `up`, are not smsq's to show). */
export function metricNamesIn(expression: string): string[] {
  return [...new Set(expression.match(/\bsmsq_[a-z0-9_]+/g) ?? [])];
}

interface DashboardPanel {
  title?: string;
  targets?: Array<{ expr?: string }>;
  panels?: DashboardPanel[];
}

/** Every query of the Grafana dashboard, rows' panels included. */
export function dashboardExpressions(): Array<{ where: string; expr: string }> {
  const dashboard = JSON.parse(readFileSync(DASHBOARD_FILE, 'utf8')) as { panels: DashboardPanel[] };
  const walk = (panels: DashboardPanel[]): Array<{ where: string; expr: string }> =>
    panels.flatMap((panel) => [
      ...(panel.targets ?? []).filter((target) => target.expr).map((target) => ({ where: `panel "${panel.title}"`, expr: target.expr! })),
      ...walk(panel.panels ?? []),
    ]);
  return walk(dashboard.panels);
}

export interface AlertRule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

/** The alert rules file, parsed as YAML and held to the shape Prometheus loads. */
export function alertRules(): AlertRule[] {
  const file = parseYaml(readFileSync(ALERTS_FILE, 'utf8')) as { groups?: Array<{ name?: string; rules?: AlertRule[] }> };
  if (!Array.isArray(file.groups) || file.groups.length === 0) throw new Error('alerts.yml has no groups');
  return file.groups.flatMap((group) => {
    if (typeof group.name !== 'string' || !Array.isArray(group.rules)) throw new Error('every group needs a name and rules');
    return group.rules;
  });
}

/** The family showing `series`: itself, or the histogram or summary whose `_bucket`, `_sum` or `_count` it is. */
export function familyOf(series: string, families: PrometheusFamily[]): PrometheusFamily | undefined {
  const exact = families.find((family) => family.name === series);
  if (exact) return exact;
  const base = series.replace(/_(bucket|sum|count)$/, '');
  return families.find((family) => family.name === base && (family.type === 'HISTOGRAM' || family.type === 'SUMMARY'));
}

/** The sum of a counter's or gauge's samples whose labels include `labels`. */
export function sampleSum(families: PrometheusFamily[], name: string, labels: Record<string, string> = {}): number {
  const family = families.find((candidate) => candidate.name === name);
  if (!family) throw new Error(`no metric ${name}`);
  return family.metrics
    .filter((sample) => Object.entries(labels).every(([label, value]) => sample.labels?.[label] === value))
    .reduce((sum, sample) => sum + Number('value' in sample ? sample.value : sample.count), 0);
}
