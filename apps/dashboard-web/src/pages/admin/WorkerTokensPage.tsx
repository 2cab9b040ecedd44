import type { CreatedWorkerToken, WorkerTokenRow } from '@smsq/dashboard-api';
import { useState, type FormEvent } from 'react';
import { api } from '../../api/client';
import { useAction, useApi } from '../../api/useApi';
import { useSession } from '../../auth/session';
import { Alert, ErrorAlert } from '../../components/Alert';
import { CredentialTable } from '../../components/CredentialTable';
import { NewSecret } from '../../components/NewSecret';
import { Card, Field, Loading, PageHeader } from '../../components/ui';

export function WorkerTokensPage() {
  const { session } = useSession();
  const tokens = useApi<WorkerTokenRow[]>('/admin/worker-tokens');
  const action = useAction();
  const [phoneId, setPhoneId] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedWorkerToken | null>(null);
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

  async function revoke(token: WorkerTokenRow) {
    const ok = await action.attempt(() => api.delete(`/admin/worker-tokens/${token.id}`));
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
        {tokens.data ? (
          <CredentialTable
            rows={tokens.data}
            caption="Worker tokens"
            testIdPrefix="worker-token-row"
            empty={{ title: 'No worker tokens yet', text: 'Create a token for each worker or gateway app; without one, nothing claims and delivers queued tasks.' }}
            extraColumn={{ header: 'Phone', cell: (token) => (token.phoneId !== null ? `#${token.phoneId}` : 'Any') }}
            confirmTitle="Revoke this worker token?"
            confirmText={(token) => (
              <>
                A worker using <code>{token.prefix}…</code> gets 401 on its next request and stops delivering. This cannot be undone.
              </>
            )}
            busy={action.busy}
            onRevoke={revoke}
          />
        ) : null}
      </Card>
    </>
  );
}
