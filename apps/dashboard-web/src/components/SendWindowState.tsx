import type { SendingRules } from '@smsq/dashboard-api';
import { sendWindowText } from '../lib/sending-rules';
import { RelativeTime, ZonedTime } from './Time';
import { Badge } from './ui';

/** Whether the client's send windows are open now and, while closed, when they open next, in its zone. */
export function SendWindowState({ rules }: { rules: SendingRules }) {
  if (rules.sendWindows.length === 0) {
    return (
      <p className="muted small" data-testid="window-state">
        No send windows: messages go out at any hour.
      </p>
    );
  }
  const windows = rules.sendWindows.map(sendWindowText).join('; ');
  if (rules.windowOpen) {
    return (
      <p data-testid="window-state">
        <Badge tone="green">open now</Badge> Send windows ({windows}, {rules.timeZone}): messages go out now.
      </p>
    );
  }
  return (
    <p data-testid="window-state">
      <Badge tone="amber">closed now</Badge> Send windows ({windows}, {rules.timeZone}): new messages wait
      {rules.windowOpensAt ? (
        <>
          {' '}
          until <ZonedTime iso={rules.windowOpensAt} timeZone={rules.timeZone} /> (<RelativeTime iso={rules.windowOpensAt} timeZone={rules.timeZone} />)
        </>
      ) : null}
      ; high-priority ones go at once.
    </p>
  );
}
