import type { CreatedWebhook, WebhookDeliveryRow, WebhookRow, WebhooksAnswer } from '@smsq/dashboard-api';
import { useEffect, useState, type FormEvent } from 'react';
import { api } from '../../api/client';
import { useAction, useApi } from '../../api/useApi';
import { Alert, ErrorAlert } from '../../components/Alert';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EmptyState } from '../../components/EmptyState';
import { NewSecret } from '../../components/NewSecret';
import { ZonedTime } from '../../components/Time';
import { Badge, Card, Field, Loading, PageHeader } from '../../components/ui';

/** How often an endpoint's deliveries are read again while the page is open. */
const REFRESH_MS = 5_000;

function AddEndpoint({ eventTypes, onAdded }: { eventTypes: string[]; onAdded: (created: CreatedWebhook) => void }) {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>(eventTypes);
  const action = useAction();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const created = await action.run(() => api.post<CreatedWebhook>('/webhooks', { url: url.trim(), events }));
    if (!created) return;
    setUrl('');
    onAdded(created);
  }

  return (
    <Card title="Add an endpoint">
      <form className="form-stack" onSubmit={(event) => void submit(event)}>
        <Field label="URL" hint="smsq POSTs each event here as JSON, signed with the endpoint's secret (Smsq-Signature).">
          {(props) => <input {...props} type="url" required maxLength={2048} placeholder="https://example.com/smsq-events" value={url} onChange={(e) => setUrl(e.target.value)} />}
        </Field>
        <fieldset className="checkbox-group">
          <legend>Events</legend>
          {eventTypes.map((type) => (
            <label key={type} className="checkbox">
              <input type="checkbox" checked={events.includes(type)} onChange={(e) => setEvents(e.target.checked ? [...events, type] : events.filter((chosen) => chosen !== type))} />
              <code>{type}</code>
            </label>
          ))}
        </fieldset>
        <ErrorAlert error={action.error} />
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={action.busy || events.length === 0}>
            Add endpoint
          </button>
        </div>
      </form>
    </Card>
  );
}

function DeliveryStatus({ delivery }: { delivery: WebhookDeliveryRow }) {
  if (delivery.status === 'delivered') return <Badge tone="green">delivered</Badge>;
  if (delivery.status === 'failed') return <Badge tone="red">failed</Badge>;
  return <Badge tone={delivery.attempts > 0 ? 'amber' : 'blue'}>{delivery.attempts > 0 ? 'retrying' : 'queued'}</Badge>;
}

function Endpoint({ endpoint, onChanged, onSecret }: { endpoint: WebhookRow; onChanged: () => void; onSecret: (created: CreatedWebhook) => void }) {
  const deliveries = useApi<WebhookDeliveryRow[]>(`/webhooks/${endpoint.id}/deliveries`);
  const action = useAction();
  const [confirming, setConfirming] = useState<'rotate' | 'delete' | null>(null);
  const { reload } = deliveries;

  useEffect(() => {
    const timer = window.setInterval(reload, REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [reload]);

  async function sendTest() {
    if (await action.run(() => api.post<WebhookDeliveryRow>(`/webhooks/${endpoint.id}/test`))) reload();
  }
  async function enable() {
    if (await action.run(() => api.post<WebhookRow>(`/webhooks/${endpoint.id}/enable`))) onChanged();
  }
  async function sendAgain(id: string) {
    if (await action.run(() => api.post<WebhookDeliveryRow>(`/webhooks/deliveries/${id}/redeliver`))) reload();
  }
  async function confirm() {
    if (confirming === 'rotate') {
      const rotated = await action.run(() => api.post<CreatedWebhook>(`/webhooks/${endpoint.id}/rotate`));
      if (rotated) onSecret(rotated);
    } else if (await action.attempt(() => api.delete(`/webhooks/${endpoint.id}`))) onChanged();
    setConfirming(null);
  }

  return (
    <Card
      title={endpoint.url}
      actions={
        <>
          <button type="button" className="btn btn-secondary btn-sm" disabled={action.busy} onClick={() => void sendTest()}>
            Send a test event
          </button>
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => setConfirming('rotate')}>
            Rotate secret
          </button>
          <button type="button" className="btn btn-danger-outline btn-sm" onClick={() => setConfirming('delete')}>
            Delete
          </button>
        </>
      }
    >
      <p>
        {endpoint.active ? <Badge tone="green">active</Badge> : <Badge tone="red">disabled</Badge>} {endpoint.events.map((type) => <code key={type}>{type} </code>)}
      </p>
      {!endpoint.active ? (
        <Alert tone="warning" title="smsq stopped sending to this endpoint">
          {endpoint.disabledReason}. New events are not queued for it meanwhile; once the receiver works again,{' '}
          <button type="button" className="btn btn-link btn-sm" disabled={action.busy} onClick={() => void enable()}>
            send to it again
          </button>
          .
        </Alert>
      ) : null}
      <ErrorAlert error={action.error ?? deliveries.error} />
      {deliveries.data === undefined ? (
        <Loading label="Loading deliveries…" />
      ) : deliveries.data.length === 0 ? (
        <p className="muted">No events yet. Send a test event to check the receiver.</p>
      ) : (
        <div className="table-wrap">
          <table data-testid={`deliveries-${endpoint.id}`}>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last answer</th>
                <th scope="col">Time</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {deliveries.data.map((delivery) => (
                <tr key={delivery.id}>
                  <td>
                    <code>{delivery.type}</code>
                    {delivery.taskId !== null ? <span className="muted small"> task #{delivery.taskId}</span> : null}
                  </td>
                  <td>
                    <DeliveryStatus delivery={delivery} />
                  </td>
                  <td>{delivery.attempts}</td>
                  <td>{delivery.lastStatusCode !== null ? `HTTP ${delivery.lastStatusCode}` : (delivery.lastError ?? '–')}</td>
                  <td>
                    <ZonedTime iso={delivery.deliveredAt ?? delivery.createdAt} timeZone={delivery.timeZone} />
                  </td>
                  <td className="actions-cell">
                    <button type="button" className="btn btn-link btn-sm" disabled={action.busy} onClick={() => void sendAgain(delivery.id)} aria-label={`Send ${delivery.type} again`}>
                      Send again
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ConfirmDialog
        open={confirming !== null}
        title={confirming === 'rotate' ? 'Rotate the secret?' : 'Delete this endpoint?'}
        confirmLabel={confirming === 'rotate' ? 'Rotate secret' : 'Delete endpoint'}
        tone={confirming === 'rotate' ? 'primary' : 'danger'}
        busy={action.busy}
        onCancel={() => setConfirming(null)}
        onConfirm={() => void confirm()}
      >
        <p>
          {confirming === 'rotate'
            ? 'A new secret is shown once. For 24 hours every event is signed with both the new and the old secret, so the receiver can switch over without missing one.'
            : 'smsq stops sending to it at once, and its undelivered events are dropped.'}
        </p>
      </ConfirmDialog>
    </Card>
  );
}

export function WebhooksPage() {
  const webhooks = useApi<WebhooksAnswer>('/webhooks');
  const [secret, setSecret] = useState<CreatedWebhook | null>(null);

  function added(created: CreatedWebhook) {
    setSecret(created);
    webhooks.reload();
  }

  return (
    <>
      <PageHeader title="Webhooks" subtitle="smsq tells your application when a task is sent, delivered, failed, expired or cancelled, when a reply arrives and when a number opts out or back in: signed, retried for a day, at least once." />
      {secret ? <NewSecret title={`Signing secret of ${secret.webhook.url}`} secret={secret.secret} testId="new-webhook-secret" onDone={() => setSecret(null)} /> : null}
      <ErrorAlert error={webhooks.error} />
      {webhooks.data === undefined ? (
        <Loading />
      ) : (
        <>
          <AddEndpoint eventTypes={webhooks.data.eventTypes} onAdded={added} />
          {webhooks.data.endpoints.length === 0 ? (
            <EmptyState title="No endpoints yet">Add one above; docs/guide/webhooks.md shows how to check the signature in Node.js and Python.</EmptyState>
          ) : (
            webhooks.data.endpoints.map((endpoint) => <Endpoint key={endpoint.id} endpoint={endpoint} onChanged={webhooks.reload} onSecret={added} />)
          )}
        </>
      )}
    </>
  );
}
