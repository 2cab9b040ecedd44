import type { TemplateBody, TemplateRow } from '@smsq/dashboard-api';
import { useState, type FormEvent } from 'react';
import { api } from '../../api/client';
import { useAction, useApi } from '../../api/useApi';
import { ErrorAlert } from '../../components/Alert';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EmptyState } from '../../components/EmptyState';
import { ZonedTime } from '../../components/Time';
import { Card, Field, Loading, PageHeader } from '../../components/ui';
import { placeholdersOf } from '../../lib/bulk-send';

/** A new template (no `editing`) or changes to one. */
function TemplateForm({ editing, onSaved, onCancel }: { editing: TemplateRow | null; onSaved: () => void; onCancel?: () => void }) {
  const [draft, setDraft] = useState<TemplateBody>({ name: editing?.name ?? '', body: editing?.body ?? '' });
  const action = useAction();
  const placeholders = placeholdersOf(draft.body);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const saved = await action.run(() => (editing ? api.put<TemplateRow>(`/templates/${editing.id}`, draft) : api.post<TemplateRow>('/templates', draft)));
    if (!saved) return;
    setDraft({ name: '', body: '' });
    onSaved();
  }

  return (
    <Card title={editing ? `Edit “${editing.name}”` : 'New template'}>
      <form className="form-stack" onSubmit={(event) => void submit(event)}>
        <Field label="Name">{(props) => <input {...props} required maxLength={100} value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} />}</Field>
        <Field label="Text" hint={placeholders.length ? `Placeholders: ${placeholders.join(', ')}` : 'Write {name} where a value goes; the API fills it from variables, Send from a field or a CSV column.'}>
          {(props) => <textarea {...props} rows={3} required maxLength={3200} value={draft.body} onChange={(e) => setDraft({ ...draft, body: e.target.value })} />}
        </Field>
        <ErrorAlert error={action.error} />
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={action.busy}>
            {editing ? 'Save changes' : 'Save template'}
          </button>
          {onCancel ? (
            <button type="button" className="btn btn-ghost" onClick={onCancel}>
              Cancel
            </button>
          ) : null}
        </div>
      </form>
    </Card>
  );
}

export function TemplatesPage() {
  const templates = useApi<TemplateRow[]>('/templates');
  const [editing, setEditing] = useState<TemplateRow | null>(null);
  const [deleting, setDeleting] = useState<TemplateRow | null>(null);
  const action = useAction();

  async function remove() {
    if (!deleting) return;
    if (!(await action.attempt(() => api.delete(`/templates/${deleting.id}`)))) return;
    setDeleting(null);
    templates.reload();
  }

  return (
    <>
      <PageHeader title="Templates" subtitle="Messages you send often, with {placeholders} filled in when you send: on the Send page, or with template_id and variables through the API." />
      {editing ? (
        <TemplateForm
          key={editing.id}
          editing={editing}
          onSaved={() => {
            setEditing(null);
            templates.reload();
          }}
          onCancel={() => setEditing(null)}
        />
      ) : (
        <TemplateForm editing={null} onSaved={templates.reload} />
      )}
      <ErrorAlert error={templates.error ?? action.error} />
      {templates.data === undefined ? (
        templates.error ? null : <Loading />
      ) : templates.data.length === 0 ? (
        <div className="card">
          <EmptyState title="No templates yet">Save one above, then pick it on the Send page.</EmptyState>
        </div>
      ) : (
        <Card>
          <div className="table-wrap">
            <table data-testid="templates-table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Text</th>
                  <th scope="col">Changed</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {templates.data.map((template) => (
                  <tr key={template.id}>
                    <td>{template.name}</td>
                    <td className="message-cell">{template.body}</td>
                    <td>
                      <ZonedTime iso={template.updatedAt} timeZone={template.timeZone} />
                    </td>
                    <td>
                      <button type="button" className="btn btn-ghost btn-sm" onClick={() => setEditing(template)}>
                        Edit
                      </button>
                      <button type="button" className="btn btn-ghost btn-sm" onClick={() => setDeleting(template)}>
                        Delete
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Card>
      )}
      <ConfirmDialog open={deleting !== null} title={`Delete “${deleting?.name ?? ''}”?`} confirmLabel="Delete template" busy={action.busy} onCancel={() => setDeleting(null)} onConfirm={() => void remove()}>
        Messages already queued from it are not changed.
      </ConfirmDialog>
    </>
  );
}
