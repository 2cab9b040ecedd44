import type { RerouteReason, TaskRow } from '@smsq/dashboard-api';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../../api/client';
import { useAction, useApi } from '../../api/useApi';
import { Alert, ErrorAlert } from '../../components/Alert';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { LocalTime, ZonedTime } from '../../components/Time';
import { Card, Loading, PageHeader, StatusBadge } from '../../components/ui';
import { MessageText } from '../../encryption/MessageText';
import { PassphraseControl } from '../../encryption/PassphraseControl';
import { partsText } from '../../lib/sealed-messages';

export function TaskDetailPage() {
  const { id } = useParams();
  const navigate = useNavigate();
  const valid = id !== undefined && /^\d+$/.test(id);
  const task = useApi<TaskRow>(valid ? `/tasks/${id}` : null);
  const action = useAction();
  const [confirming, setConfirming] = useState(false);
  const [resentFrom, setResentFrom] = useState<number | null>(null);

  async function resend() {
    if (!task.data) return;
    const from = task.data.id;
    const created = await action.run(() => api.post<TaskRow>(`/tasks/${from}/resend`));
    setConfirming(false);
    if (created) {
      setResentFrom(from);
      navigate(`/tasks/${created.id}`);
    }
  }

  const t = task.data;
  return (
    <>
      <PageHeader
        title={valid ? `Task #${id}` : 'Task'}
        eyebrow={<Link to="/tasks">← All tasks</Link>}
        actions={
          <>
            {t?.encrypted ? <PassphraseControl /> : null}
            {t?.status === 'failed' ? (
              <button type="button" className="btn btn-primary" onClick={() => setConfirming(true)} disabled={action.busy}>
                Resend
              </button>
            ) : null}
          </>
        }
      />
      {resentFrom !== null && t && t.id !== resentFrom ? (
        <Alert tone="success" title="Queued again" onDismiss={() => setResentFrom(null)}>
          This is the new task created from task #{resentFrom}. 1 credit was charged.
        </Alert>
      ) : null}
      <ErrorAlert error={action.error} onDismiss={() => action.setError(undefined)} />
      {!valid ? <Alert title="Not found">There is no task with this number.</Alert> : null}
      <ErrorAlert error={task.error} />
      {task.loading && !t ? <Loading /> : null}
      {t ? (
        <div className="detail-grid">
          <Card title="Message">
            <p className="message-body" data-testid="task-message">
              <MessageText message={t.message} encrypted={t.encrypted} />
            </p>
            <dl className="facts">
              <div>
                <dt>Status</dt>
                <dd data-testid="task-status">
                  <StatusBadge status={t.status} />
                </dd>
              </div>
              <div>
                <dt>Recipient</dt>
                <dd>{t.recipient}</dd>
              </div>
              <div>
                <dt>Phone</dt>
                <dd>
                  #{t.phoneId}
                  {t.reroutedBecause ? (
                    <span className="muted" data-testid="task-rerouted">
                      {' '}
                      (moved from #{t.firstPhoneId}: {REROUTED_BECAUSE[t.reroutedBecause]})
                    </span>
                  ) : null}
                </dd>
              </div>
              <div>
                <dt>Attempts</dt>
                <dd data-testid="task-attempts">{t.attempts}</dd>
              </div>
              <div>
                <dt>SMS parts</dt>
                <dd data-testid="task-segments">{partsText(t.segments)}</dd>
              </div>
              <div>
                <dt>Priority</dt>
                <dd data-testid="task-priority">{t.priority === 'high' ? 'High: ignores send windows, goes first' : 'Normal'}</dd>
              </div>
            </dl>
            {t.error ? (
              <div className="error-box">
                <p className="error-box-title">Error</p>
                <p data-testid="task-error">{t.error}</p>
              </div>
            ) : null}
          </Card>
          <Card title="Timeline">
            <ol className="timeline">
              <li>
                <span className="timeline-label">Created</span>
                <ZonedTime iso={t.createdAt} timeZone={t.timeZone} />
              </li>
              <li>
                <span className="timeline-label">Scheduled</span>
                <LocalTime value={t.scheduledAt} timeZone={t.timeZone} />
              </li>
              {t.sentAt ? (
                <li className="timeline-ok">
                  <span className="timeline-label">Sent</span>
                  <ZonedTime iso={t.sentAt} timeZone={t.timeZone} />
                </li>
              ) : null}
              {t.deliveredAt ? (
                <li className="timeline-ok">
                  <span className="timeline-label">Delivered</span>
                  <ZonedTime iso={t.deliveredAt} timeZone={t.timeZone} />
                </li>
              ) : null}
              {t.failedAt ? (
                <li className="timeline-bad">
                  <span className="timeline-label">Failed</span>
                  <ZonedTime iso={t.failedAt} timeZone={t.timeZone} />
                </li>
              ) : null}
              {t.expiresAt && !t.sentAt && !t.failedAt ? (
                <li className="timeline-wait">
                  <span className="timeline-label">Expires</span>
                  <ZonedTime iso={t.expiresAt} timeZone={t.timeZone} />
                </li>
              ) : null}
              {!t.sentAt && !t.failedAt ? (
                <li className="timeline-wait">
                  <span className="timeline-label">Result</span>
                  <span>{t.status === 'claimed' ? 'A phone is sending it now' : 'Waiting to be sent'}</span>
                </li>
              ) : null}
            </ol>
            {t.status === 'failed' ? <p className="muted small">The credit for this failed send was refunded. Resending queues a new task and costs 1 credit.</p> : null}
          </Card>
        </div>
      ) : null}
      <ConfirmDialog
        open={confirming}
        title="Resend this message?"
        confirmLabel="Resend"
        tone="primary"
        busy={action.busy}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void resend()}
      >
        <p>
          A new task to <strong>{t?.recipient}</strong> with the same {t?.encrypted ? 'encrypted ' : ''}text is queued. <strong>It costs 1 credit.</strong>
        </p>
      </ConfirmDialog>
    </>
  );
}

/** Why a task moved to another phone, in the words of its owner's Phones page. */
const REROUTED_BECAUSE: Record<RerouteReason, string> = {
  phone_disabled: 'its phone was disabled',
  phone_silent: 'its phone went silent',
  phone_paused: 'its phone was paused, the carrier refused it for volume',
  phone_full: 'its phone reached its daily limit',
  retry: 'its phone sent nothing, so another one tries',
};
