import { useId } from 'react';
import { dayTotal, fillDays, niceScale, sumDays, type DayCounts } from '../lib/chart';
import { formatCredits, formatDay } from '../lib/format';

const SERIES = [
  { key: 'sent', label: 'Sent', className: 'series-sent' },
  { key: 'failed', label: 'Failed', className: 'series-failed' },
  { key: 'pending', label: 'Pending', className: 'series-pending' },
] as const;

const WIDTH = 720;
const HEIGHT = 240;
const PAD = { top: 12, right: 8, bottom: 28, left: 40 };

/**
 * Sent / failed / pending per day as stacked bars, drawn as inline SVG. The SVG is an image with a
 * title and a description that states the totals; a legend and a per-day table follow for readers
 * who cannot see the bars.
 */
export function DailyChart({ days, title = 'Messages per day, last 30 days' }: { days: DayCounts[]; title?: string }) {
  const id = useId();
  const filled = fillDays(days, 30);
  const scale = niceScale(Math.max(0, ...filled.map(dayTotal)));
  const totals = sumDays(filled);
  const innerW = WIDTH - PAD.left - PAD.right;
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const slot = innerW / filled.length;
  const barW = Math.max(2, slot * 0.68);
  const y = (value: number) => PAD.top + innerH - (value / scale.max) * innerH;
  const busiest = filled.reduce((best, d) => (dayTotal(d) > dayTotal(best) ? d : best), filled[0]);
  const description =
    totals.total === 0
      ? 'No messages in the last 30 days.'
      : `In the last 30 days: ${formatCredits(totals.sent)} sent, ${formatCredits(totals.failed)} failed, ${formatCredits(totals.pending)} pending. Busiest day ${formatDay(busiest.day)} with ${formatCredits(dayTotal(busiest))} messages.`;

  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={`${id}-title`} aria-describedby={`${id}-desc`} preserveAspectRatio="xMidYMid meet" data-testid="daily-chart">
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{description}</desc>
        {scale.ticks.map((tick) => (
          <g key={tick} className="chart-grid">
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(tick)} y2={y(tick)} />
            <text x={PAD.left - 6} y={y(tick)} dy="0.32em" textAnchor="end">
              {formatCredits(tick)}
            </text>
          </g>
        ))}
        {filled.map((d, i) => {
          const x = PAD.left + i * slot + (slot - barW) / 2;
          let base = 0;
          return (
            <g key={d.day}>
              {SERIES.map((s) => {
                const value = d[s.key];
                if (value <= 0) return null;
                const top = y(base + value);
                const height = y(base) - top;
                base += value;
                return (
                  <rect key={s.key} className={s.className} x={x} y={top} width={barW} height={Math.max(0.5, height)} rx={1.5}>
                    <title>{`${formatDay(d.day)}: ${formatCredits(value)} ${s.label.toLowerCase()}`}</title>
                  </rect>
                );
              })}
              {i % 5 === 4 || i === 0 ? (
                <text className="chart-axis" x={x + barW / 2} y={HEIGHT - 8} textAnchor="middle">
                  {formatDay(d.day)}
                </text>
              ) : null}
            </g>
          );
        })}
        <line className="chart-baseline" x1={PAD.left} x2={WIDTH - PAD.right} y1={y(0)} y2={y(0)} />
      </svg>
      <figcaption>
        <ul className="legend" aria-label="Legend">
          {SERIES.map((s) => (
            <li key={s.key}>
              <span className={`swatch ${s.className}`} aria-hidden="true" />
              {s.label} <span className="muted">({formatCredits(totals[s.key])})</span>
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}

/** A single series over time (e.g. sends per minute) as bars with a light area, in inline SVG. */
export function SeriesChart({ points, title, unit }: { points: Array<{ label: string; value: number }>; title: string; unit: string }) {
  const id = useId();
  const scale = niceScale(Math.max(0, ...points.map((p) => p.value)));
  const innerW = WIDTH - PAD.left - PAD.right;
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const slot = innerW / Math.max(1, points.length);
  const y = (value: number) => PAD.top + innerH - (value / scale.max) * innerH;
  const total = points.reduce((sum, p) => sum + p.value, 0);
  const peak = points.reduce((best, p) => (p.value > best ? p.value : best), 0);
  const line = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${(PAD.left + i * slot + slot / 2).toFixed(1)},${y(p.value).toFixed(1)}`).join(' ');
  const area = points.length > 0 ? `${line} L${(PAD.left + (points.length - 1) * slot + slot / 2).toFixed(1)},${y(0)} L${(PAD.left + slot / 2).toFixed(1)},${y(0)} Z` : '';
  const labelEvery = Math.max(1, Math.ceil(points.length / 6));
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={`${id}-title`} aria-describedby={`${id}-desc`} data-testid="series-chart">
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{points.length === 0 ? 'No data yet.' : `${formatCredits(total)} ${unit} in total over ${points.length} points; peak ${formatCredits(peak)}.`}</desc>
        {scale.ticks.map((tick) => (
          <g key={tick} className="chart-grid">
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(tick)} y2={y(tick)} />
            <text x={PAD.left - 6} y={y(tick)} dy="0.32em" textAnchor="end">
              {formatCredits(tick)}
            </text>
          </g>
        ))}
        {area ? <path className="series-area" d={area} /> : null}
        {line ? <path className="series-line" d={line} /> : null}
        {points.map((p, i) => (
          <g key={`${p.label}-${i}`}>
            <rect className="series-hit" x={PAD.left + i * slot} y={PAD.top} width={slot} height={innerH}>
              <title>{`${p.label}: ${formatCredits(p.value)} ${unit}`}</title>
            </rect>
            {i % labelEvery === 0 ? (
              <text className="chart-axis" x={PAD.left + i * slot + slot / 2} y={HEIGHT - 8} textAnchor="middle">
                {p.label}
              </text>
            ) : null}
          </g>
        ))}
        <line className="chart-baseline" x1={PAD.left} x2={WIDTH - PAD.right} y1={y(0)} y2={y(0)} />
      </svg>
    </figure>
  );
}
