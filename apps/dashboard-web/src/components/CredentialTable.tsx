import { useState, type ReactNode } from 'react';
import { formatDateTime, formatRelative } from '../lib/format';
import { ConfirmDialog } from './ConfirmDialog';
import { EmptyState } from './EmptyState';
import { Badge } from './ui';

/** What API keys and worker tokens share: a visible prefix and their life so far, never the secret. */
export interface CredentialRow {
  id: number;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface CredentialTableProps<Row extends CredentialRow> {
  rows: Row[];
  /** Plural noun for the table's caption and row test ids, e.g. "API keys". */
  caption: string;
  testIdPrefix: string;
  empty: { title: string; text: string };
  /** What names a row instead of its prefix, e.g. an SMPP credential's system_id. */
  identity?: { header: string; cell: (row: Row) => ReactNode };
  /** A column shown after the prefix, e.g. the phone a token belongs to. */
  extraColumn?: { header: string; cell: (row: Row) => ReactNode };
  /** The header of `lastUsedAt`'s column; "Last used" unless told. */
  lastUsedHeader?: string;
  confirmTitle: string;
  confirmText: (row: Row) => ReactNode;
  busy: boolean;
  onRevoke: (row: Row) => Promise<unknown>;
}

/** Credentials with prefix, created, last used and status; Revoke asks for confirmation first. */
export function CredentialTable<Row extends CredentialRow>(props: CredentialTableProps<Row>) {
  const { rows, extraColumn, identity } = props;
  const [pending, setPending] = useState<Row | null>(null);
  if (rows.length === 0) {
    return (
      <EmptyState title={props.empty.title} icon="⚿">
        {props.empty.text}
      </EmptyState>
    );
  }
  return (
    <>
      <div className="table-wrap">
        <table>
          <caption className="sr-only">{props.caption}</caption>
          <thead>
            <tr>
              <th scope="col">{identity?.header ?? 'Prefix'}</th>
              {extraColumn ? <th scope="col">{extraColumn.header}</th> : null}
              <th scope="col">Created</th>
              <th scope="col">{props.lastUsedHeader ?? 'Last used'}</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id} data-testid={`${props.testIdPrefix}-${row.id}`}>
                <td>{identity ? identity.cell(row) : <code>{row.prefix}…</code>}</td>
                {extraColumn ? <td>{extraColumn.cell(row)}</td> : null}
                <td className="nowrap">{formatDateTime(row.createdAt)}</td>
                <td className="nowrap" title={formatDateTime(row.lastUsedAt)}>
                  {formatRelative(row.lastUsedAt)}
                </td>
                <td>{row.revokedAt ? <Badge tone="gray">Revoked {formatDateTime(row.revokedAt)}</Badge> : <Badge tone="green">Active</Badge>}</td>
                <td className="actions-cell">
                  {row.revokedAt ? null : (
                    <button type="button" className="btn btn-danger-outline btn-sm" onClick={() => setPending(row)}>
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
        title={props.confirmTitle}
        confirmLabel="Revoke"
        busy={props.busy}
        onCancel={() => setPending(null)}
        onConfirm={() => {
          if (!pending) return;
          void props.onRevoke(pending).then(() => setPending(null));
        }}
      >
        {pending ? <p>{props.confirmText(pending)}</p> : null}
      </ConfirmDialog>
    </>
  );
}
