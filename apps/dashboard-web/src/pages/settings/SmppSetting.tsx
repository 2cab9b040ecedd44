import type { CreatedSmppCredential, SmppCredentialRow, SmppCredentials } from '@smsq/dashboard-api';
import { useState, type FormEvent } from 'react';
import { api } from '../../api/client';
import { useAction, useApi } from '../../api/useApi';
import { Alert, ErrorAlert } from '../../components/Alert';
import { CredentialTable } from '../../components/CredentialTable';
import { NewSecret } from '../../components/NewSecret';
import { Card, Field, Loading } from '../../components/ui';

/** What SMPP 3.4 allows in a system_id, as smsq takes it. */
const SYSTEM_ID_PATTERN = '[A-Za-z0-9_.\\-]{1,15}';

/** "ACME, +381641234567" → ["ACME", "+381641234567"]. */
function sourceAddressesOf(text: string): string[] {
  return text
    .split(',')
    .map((address) => address.trim())
    .filter((address) => address !== '');
}

/**
 * The client's SMPP credentials: what an SMPP client (Kannel, Jasmin, an SMS platform) binds to
 * smsq with, where it connects, and the password of a new one, shown once.
 */
export function SmppSetting() {
  const credentials = useApi<SmppCredentials>('/smpp-credentials');
  const action = useAction();
  const [draft, setDraft] = useState({ systemId: '', sources: '' });
  const [created, setCreated] = useState<CreatedSmppCredential | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const connection = credentials.data?.connection;

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setNotice(null);
    const sourceAddresses = sourceAddressesOf(draft.sources);
    const body = { ...(draft.systemId.trim() ? { systemId: draft.systemId.trim() } : {}), ...(sourceAddresses.length > 0 ? { sourceAddresses } : {}) };
    const answer = await action.run(() => api.post<CreatedSmppCredential>('/smpp-credentials', body));
    if (!answer) return;
    setCreated(answer);
    setDraft({ systemId: '', sources: '' });
    credentials.reload();
  }

  async function revoke(credential: SmppCredentialRow): Promise<boolean> {
    setNotice(null);
    const ok = await action.attempt(() => api.delete(`/smpp-credentials/${credential.id}`));
    credentials.reload();
    if (ok) setNotice(`The SMPP credentials ${credential.systemId} were revoked.`);
    return ok;
  }

  return (
    <Card title="SMPP" titleId="smpp">
      <p className="muted">
        Software that speaks SMPP 3.4 (Kannel, Jasmin, an SMS platform) sends and receives through smsq with these credentials: messages are queued as the API queues them, with delivery receipts and replies coming
        back over the bind.
        {connection ? (
          <>
            {' '}
            Connect to host <code data-testid="smpp-host">{connection.host}</code>, port <code data-testid="smpp-port">{connection.port}</code>, and bind as transmitter, receiver or transceiver.
          </>
        ) : null}
      </p>
      {created ? (
        <NewSecret
          title={`Password for ${created.credential.systemId}`}
          secret={created.password}
          testId="new-smpp-password"
          onDone={() => setCreated(null)}
          note={`It will not be shown again: smsq keeps only a hash of it. Bind with system_id ${created.credential.systemId} and this password${connection ? ` to ${connection.host}, port ${connection.port}` : ''}.`}
        />
      ) : null}
      <form className="form-stack" onSubmit={(event) => void create(event)}>
        <Field label="System ID (optional)" hint="What your SMPP client binds with: up to 15 letters, digits, “_”, “-” or “.”, case-sensitive. Leave it empty and smsq picks one.">
          {(props) => (
            <input {...props} name="systemId" autoComplete="off" maxLength={15} pattern={SYSTEM_ID_PATTERN} value={draft.systemId} onChange={(e) => setDraft({ ...draft, systemId: e.target.value })} className="short-input" />
          )}
        </Field>
        <Field label="Source addresses (optional)" hint="Separated by commas: the only senders (numbers, or names of up to 11 characters) a bind with these credentials may submit from. Leave it empty to allow any.">
          {(props) => <input {...props} name="sourceAddresses" autoComplete="off" placeholder="ACME, +381641234567" value={draft.sources} onChange={(e) => setDraft({ ...draft, sources: e.target.value })} />}
        </Field>
        <ErrorAlert error={action.error} onDismiss={() => action.setError(undefined)} />
        {notice ? (
          <Alert tone="success" onDismiss={() => setNotice(null)}>
            {notice}
          </Alert>
        ) : null}
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={action.busy}>
            Create SMPP credentials
          </button>
        </div>
      </form>
      <ErrorAlert error={credentials.error} />
      {credentials.loading && !credentials.data ? <Loading /> : null}
      {credentials.data ? (
        <CredentialTable
          rows={credentials.data.credentials.map((credential) => ({ ...credential, prefix: credential.systemId, lastUsedAt: credential.lastBoundAt }))}
          caption="SMPP credentials"
          testIdPrefix="smpp-credential-row"
          empty={{ title: 'No SMPP credentials yet', text: 'Create credentials to connect an SMPP client. The password is shown once, so store it somewhere safe.' }}
          identity={{ header: 'System ID', cell: (credential) => <code>{credential.systemId}</code> }}
          extraColumn={{
            header: 'Source addresses',
            cell: (credential) => (credential.sourceAddresses.length > 0 ? credential.sourceAddresses.join(', ') : <span className="muted">Any</span>),
          }}
          lastUsedHeader="Last bound"
          confirmTitle="Revoke these SMPP credentials?"
          confirmText={(credential) => (
            <>
              SMPP clients bound with <code>{credential.systemId}</code> are disconnected within seconds and cannot bind again. The system ID stays taken. This cannot be undone.
            </>
          )}
          busy={action.busy}
          onRevoke={revoke}
        />
      ) : null}
    </Card>
  );
}
