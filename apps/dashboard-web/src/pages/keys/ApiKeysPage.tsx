import type { ApiKeyRow, CreatedApiKey } from '@smsq/dashboard-api';
import { useState } from 'react';
import { api } from '../../api/client';
import { useAction, useApi } from '../../api/useApi';
import { ApiKeyTable } from '../../components/ApiKeyTable';
import { Alert, ErrorAlert } from '../../components/Alert';
import { NewSecret } from '../../components/NewSecret';
import { Card, Loading, PageHeader } from '../../components/ui';
import { useSession } from '../../auth/session';

export function ApiKeysPage() {
  const { session } = useSession();
  const keys = useApi<ApiKeyRow[]>('/keys');
  const action = useAction();
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [name, setName] = useState('');

  async function create() {
    setNotice(null);
    const answer = await action.run(() => api.post<CreatedApiKey>('/keys', name.trim() ? { name: name.trim() } : {}));
    if (answer) {
      setCreated(answer);
      setName('');
      keys.reload();
    }
  }

  async function revoke(key: ApiKeyRow): Promise<boolean> {
    setNotice(null);
    const ok = await action.attempt(() => api.delete(`/keys/${key.id}`));
    keys.reload();
    if (ok) setNotice(`Key ${key.prefix}… was revoked.`);
    return ok;
  }

  return (
    <>
      <PageHeader
        title="API keys"
        subtitle={
          <>
            Send <code>X-API-Key: &lt;key&gt;</code> with every request to <code>{session.apiBaseUrl.replace(/\/$/, '')}/smsapi/create-task</code>.
          </>
        }
        actions={
          <div className="inline-form">
            <label className="sr-only" htmlFor="new-key-name">
              Key name
            </label>
            <input id="new-key-name" placeholder="Name (optional), e.g. shop backend" maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
            <button type="button" className="btn btn-primary" onClick={() => void create()} disabled={action.busy}>
              Create API key
            </button>
          </div>
        }
      />
      <ErrorAlert error={action.error} onDismiss={() => action.setError(undefined)} />
      {notice ? (
        <Alert tone="success" onDismiss={() => setNotice(null)}>
          {notice}
        </Alert>
      ) : null}
      {created ? (
        <NewSecret
          title="Your new API key"
          secret={created.apiKey}
          testId="new-api-key"
          qrPayload={session.profile === 'A' ? created.pairingPayload : null}
          onDone={() => setCreated(null)}
          note={session.profile === 'A' ? 'It will not be shown again. The same key pairs a phone: the steps and its QR code are below.' : undefined}
        />
      ) : null}
      <Card title="Your keys">
        <ErrorAlert error={keys.error} />
        {keys.loading && !keys.data ? <Loading /> : null}
        {keys.data ? (
          <ApiKeyTable
            keys={keys.data}
            busy={action.busy}
            onRevoke={revoke}
            emptyText="Create a key to start sending SMS from your application. The key is shown once, so store it somewhere safe."
          />
        ) : null}
      </Card>
    </>
  );
}
