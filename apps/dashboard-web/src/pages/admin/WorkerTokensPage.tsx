import type { CreatedWorkerToken, WorkerTokenRow } from '@smsq/dashboard-api';
import { useState, type FormEvent } from 'react';
import { api } from '../../api/client';
import { useAction, useApi } from '../../api/useApi';
import { useSession } from '../../auth/session';
import { Alert, ErrorAlert } from '../../components/Alert';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EmptyState } from '../../components/EmptyState';
import { NewSecret } from '../../components/NewSecret';
import { Badge, Card, Field, Loading, PageHeader } from '../../components/ui';
import { formatDateTime, formatRelative } from '../../lib/format';

export function WorkerTokensPage() {
  const { session } = useSession();
  const tokens = useApi<WorkerTokenRow[]>('/admin/worker-tokens');
  const action = useAction();
  const [phoneId, setPhoneId] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedWorkerToken | null>(null);
  const [revoking, setRevoking] = useState<WorkerTokenRow | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setProblem(null);
    setNotice(null);
    if (phoneId.trim() !== '' && !/^\d+$/.test(phoneId.trim())) return setProblem('The phone ID is a number, or leave it empty.');
    const body = phoneId.trim() !== '' ? { phoneId: Number(phoneId) } : {};
    const answer = await action.run(() => api.post<CreatedWorkerToken>('/admin/worker-tokens', body));
    if (answer) {
      setCreated(answer);
      setPhoneId('');
      tokens.reload();
    }
  }

  async function revoke() {
    if (!revoking) return;
    const token = revoking;
    const ok = await action.attempt(() => api.delete(`/admin/worker-tokens/${token.id}`));
    setRevoking(null);
    tokens.reload();
    if (ok) setNotice(`Token ${token.prefix}… was revoked.`);
  }

  return (
    <>
      <PageHeader title="Worker tokens" eyebrow="Admin" subtitle={<>Workers and gateway apps send <code>X-Worker-Token</code> to claim tasks and report results. Never give one to a client application.</>} />
      {problem ? <Alert tone="error">{problem}</Alert> : null}
      <ErrorAlert error={action.error} onDismiss={() => action.setError(undefined)} />
      {notice ? (
        <Alert tone="success" onDismiss={() => setNotice(null)}>
          {notice}
        </Alert>
      ) : null}
      {created ? <NewSecret title="New worker token" secret={created.workerToken} testId="new-worker-token" onDone={() => setCreated(null)} /> : null}
      <Card title="Create a worker token">
        <form className="inline-form" onSubmit={(event) => void create(event)} noValidate>
          {session.profile === 'A' ? (
            <Field label="Phone ID" hint="Optional: tie the token to one phone.">
              {(props) => <input {...props} inputMode="numeric" value={phoneId} onChange={(e) => setPhoneId(e.target.value)} />}
            </Field>
          ) : null}
          <div className="form-actions">
            <button type="submit" className="btn btn-primary" disabled={action.busy}>
              Create worker token
            </button>
          </div>
        </form>
      </Card>
      <Card title="Tokens">
        <ErrorAlert error={tokens.error} />
        {tokens.loading && !tokens.data ? <Loading /> : null}
        {tokens.data && tokens.data.length === 0 ? (
          <EmptyState title="No worker tokens yet" icon="⚿">
            Create a token for each worker or gateway app; without one, nothing claims and delivers queued tasks.
          </EmptyState>
        ) : null}
        {tokens.data && tokens.data.length > 0 ? (
          <div className="table-wrap">
            <table>
              <caption className="sr-only">Worker tokens</caption>
              <thead>
                <tr>
                  <th scope="col">Prefix</th>
                  <th scope="col">Phone</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Status</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {tokens.data.map((token) => (
                  <tr key={token.id} data-testid={`worker-token-row-${token.id}`}>
                    <td>
                      <code>{token.prefix}…</code>
                    </td>
                    <td>{token.phoneId !== null ? `#${token.phoneId}` : 'Any'}</td>
                    <td className="nowrap">{formatDateTime(token.createdAt)}</td>
                    <td className="nowrap" title={formatDateTime(token.lastUsedAt)}>
                      {formatRelative(token.lastUsedAt)}
                    </td>
                    <td>{token.revokedAt ? <Badge tone="gray">Revoked {formatDateTime(token.revokedAt)}</Badge> : <Badge tone="green">Active</Badge>}</td>
                    <td className="actions-cell">
                      {token.revokedAt ? null : (
                        <button type="button" className="btn btn-danger-outline btn-sm" onClick={() => setRevoking(token)}>
                          Revoke
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </Card>
      <ConfirmDialog open={revoking !== null} title="Revoke this worker token?" confirmLabel="Revoke" busy={action.busy} onCancel={() => setRevoking(null)} onConfirm={() => void revoke()}>
        <p>
          A worker using <code>{revoking?.prefix}…</code> gets 401 on its next request and stops delivering. This cannot be undone.
        </p>
      </ConfirmDialog>
    </>
  );
}
