import type { ApiKeyRow } from '@smsq/dashboard-api';
import { CredentialTable } from './CredentialTable';

/** A client's API keys; Revoke asks for confirmation first. */
export function ApiKeyTable({ keys, onRevoke, busy, emptyText }: { keys: ApiKeyRow[]; onRevoke: (key: ApiKeyRow) => Promise<boolean>; busy: boolean; emptyText: string }) {
  return (
    <CredentialTable
      rows={keys}
      caption="API keys"
      testIdPrefix="api-key-row"
      empty={{ title: 'No API keys yet', text: emptyText }}
      extraColumn={{ header: 'Name', cell: (key) => key.name ?? <span className="muted">–</span> }}
      confirmTitle="Revoke this API key?"
      confirmText={(key) => (
        <>
          Applications using the key <code>{key.prefix}…</code> will get 401 errors at once, and a phone paired with it stops sending. This cannot be undone.
        </>
      )}
      busy={busy}
      onRevoke={onRevoke}
    />
  );
}
