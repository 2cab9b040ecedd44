import type { ApiKeyRow } from '@smsq/dashboard-api';
import { useState } from 'react';
import { formatDateTime, formatRelative } from '../lib/format';
import { ConfirmDialog } from './ConfirmDialog';
import { EmptyState } from './EmptyState';
import { Badge } from './ui';

/** API keys with prefix, created, last used and revoked; Revoke asks for confirmation first. */
export function ApiKeyTable({ keys, onRevoke, busy, emptyText }: { keys: ApiKeyRow[]; onRevoke: (key: ApiKeyRow) => Promise<boolean>; busy: boolean; emptyText: string }) {
  const [pending, setPending] = useState<ApiKeyRow | null>(null);
  if (keys.length === 0) {
    return (
      <EmptyState title="No API keys yet" icon="⚿">
        {emptyText}
      </EmptyState>
    );
  }
  return (
    <>
      <div className="table-wrap">
        <table>
          <caption className="sr-only">API keys</caption>
          <thead>
            <tr>
              <th scope="col">Prefix</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.map((key) => (
              <tr key={key.id} data-testid={`api-key-row-${key.id}`}>
                <td>
                  <code>{key.prefix}…</code>
                </td>
                <td>{formatDateTime(key.createdAt)}</td>
                <td title={formatDateTime(key.lastUsedAt)}>{formatRelative(key.lastUsedAt)}</td>
                <td>{key.revokedAt ? <Badge tone="gray">Revoked {formatDateTime(key.revokedAt)}</Badge> : <Badge tone="green">Active</Badge>}</td>
                <td className="actions-cell">
                  {key.revokedAt ? null : (
                    <button type="button" className="btn btn-danger-outline btn-sm" onClick={() => setPending(key)}>
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ConfirmDialog
        open={pending !== null}
        title="Revoke this API key?"
        confirmLabel="Revoke"
        busy={busy}
        onCancel={() => setPending(null)}
        onConfirm={() => {
          if (!pending) return;
          void onRevoke(pending).then(() => setPending(null));
        }}
      >
        <p>
          Applications using the key <code>{pending?.prefix}…</code> will get 401 errors at once, and a phone paired with it stops sending. This cannot be undone.
        </p>
      </ConfirmDialog>
    </>
  );
}
