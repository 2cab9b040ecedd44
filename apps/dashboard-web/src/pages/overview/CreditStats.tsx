import { ZonedTime } from '../../components/Time';
import { Stat } from '../../components/ui';
import { formatCredits, formatRelative } from '../../lib/format';

export function planLabel(plan: string): string {
  return plan ? plan.charAt(0).toUpperCase() + plan.slice(1) : '–';
}

/** Credits remaining (daily and bonus apart), plan and when the daily credits refill. */
export function CreditStats(props: { plan: string; dailyAllowance: number; dailyRemaining: number; bonusRemaining: number; creditsRemaining: number; periodEndsAt: string | null; phoneLimit?: number; timeZone: string }) {
  const usedPct = props.dailyAllowance > 0 ? Math.min(100, Math.round((props.dailyRemaining / props.dailyAllowance) * 100)) : 0;
  return (
    <div className="stats-grid">
      <Stat label="Credits remaining" value={formatCredits(props.creditsRemaining)} testId="credits-remaining" hint="Daily plus bonus credits; 1 credit per SMS." />
      <div className="stat">
        <p className="stat-label">Daily credits</p>
        <p className="stat-value">
          <span data-testid="daily-remaining">{formatCredits(props.dailyRemaining)}</span>
          {props.dailyAllowance > 0 ? <span className="stat-of"> / {formatCredits(props.dailyAllowance)}</span> : null}
        </p>
        {props.dailyAllowance > 0 ? (
          <div className="meter" aria-hidden="true">
            <span style={{ width: `${usedPct}%` }} />
          </div>
        ) : null}
        <p className="stat-hint">{props.periodEndsAt ? 'Unused daily credits do not carry over.' : 'No daily allowance.'}</p>
      </div>
      <Stat label="Bonus credits" value={formatCredits(props.bonusRemaining)} testId="bonus-remaining" hint="Granted by an admin; they never expire." />
      <Stat label="Plan" value={planLabel(props.plan)} testId="plan" hint={props.phoneLimit !== undefined ? `Up to ${formatCredits(props.phoneLimit)} phones` : undefined} />
      <Stat
        label="Daily credits refill"
        value={props.periodEndsAt ? formatRelative(props.periodEndsAt, new Date(), '–') : '—'}
        testId="refill-at"
        compact
        hint={props.periodEndsAt ? <ZonedTime iso={props.periodEndsAt} timeZone={props.timeZone} /> : 'Credits do not refill on this profile.'}
      />
    </div>
  );
}
