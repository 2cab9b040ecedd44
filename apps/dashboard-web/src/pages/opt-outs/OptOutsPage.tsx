import type { OptOutPage, OptOutRow, OptOutSettings, OptOutsAdded } from '@smsq/dashboard-api';
import { useEffect, useState, type ChangeEvent, type FormEvent } from 'react';
import { api } from '../../api/client';
import { buildQuery } from '../../api/query';
import { useAction, useApi, useCursorPages } from '../../api/useApi';
import { Alert, ErrorAlert } from '../../components/Alert';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EmptyState } from '../../components/EmptyState';
import { SearchBar, useSearch } from '../../components/SearchBar';
import { ZonedTime } from '../../components/Time';
import { Badge, Card, Field, Loading, PageHeader } from '../../components/ui';
import { parseCsv } from '../../lib/bulk-send';
import { chunksOf, numbersOfTable, entriesOfText, optOutsCsv } from '../../lib/opt-outs';

/** Numbers one request adds, at most (the API's limit); a longer import goes in several. */
const ADD_CHUNK = 1000;
const SOURCE_LABEL: Record<OptOutRow['source'], string> = { reply: 'Replied', api: 'API', dashboard: 'Dashboard' };

/** Adds numbers in chunks; the first refused chunk stops the rest and is the error shown. */
async function addAll(numbers: string[]): Promise<OptOutsAdded> {
  const total = { added: 0, cancelled: 0 };
  for (const chunk of chunksOf(numbers, ADD_CHUNK)) {
    const answer = await api.post<OptOutsAdded>('/opt-outs', { numbers: chunk });
    total.added += answer.added;
    total.cancelled += answer.cancelled;
  }
  return total;
}

function AddNumbers({ onAdded }: { onAdded: (added: OptOutsAdded) => void }) {
  const [text, setText] = useState('');
  const action = useAction();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const added = await action.run(() => addAll(entriesOfText(text)));
    if (!added) return;
    setText('');
    onAdded(added);
  }

  async function importFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const read = numbersOfTable(parseCsv(await file.text()));
    if ('problem' in read) {
      await action.run(() => Promise.reject(new Error(`${file.name}: ${read.problem}`)));
      return;
    }
    const added = await action.run(() => addAll(read.numbers));
    if (added) onAdded(added);
  }

  return (
    <Card title="Add numbers">
      <form className="form-stack" onSubmit={(event) => void submit(event)}>
        <Field label="Numbers" hint="One per line, or separated by commas; read as Send reads a recipient.">
          {(props) => <textarea {...props} rows={3} value={text} onChange={(e) => setText(e.target.value)} />}
        </Field>
        <ErrorAlert error={action.error} />
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={action.busy || entriesOfText(text).length === 0}>
            {action.busy ? 'Adding…' : 'Add to the list'}
          </button>
          <label className="btn btn-secondary">
            Import CSV
            <input type="file" accept=".csv,text/csv,text/plain" className="sr-only" data-testid="opt-outs-import" disabled={action.busy} onChange={(event) => void importFile(event)} />
          </label>
        </div>
      </form>
    </Card>
  );
}

function Settings() {
  const settings = useApi<OptOutSettings>('/opt-out-settings');
  const [draft, setDraft] = useState({ optOut: '', optIn: '', cancelQueued: true });
  const [saved, setSaved] = useState(false);
  const action = useAction();

  useEffect(() => {
    if (settings.data) setDraft({ optOut: settings.data.optOutWords.join(', '), optIn: settings.data.optInWords.join(', '), cancelQueued: settings.data.cancelQueued });
  }, [settings.data]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaved(false);
    const answer = await action.run(() => api.put<OptOutSettings>('/opt-out-settings', { optOutWords: entriesOfText(draft.optOut), optInWords: entriesOfText(draft.optIn), cancelQueued: draft.cancelQueued }));
    if (answer) {
      setSaved(true);
      settings.reload();
    }
  }

  if (!settings.data) return settings.error ? <ErrorAlert error={settings.error} /> : <Loading />;
  return (
    <Card title="Keywords">
      <form className="form-stack" onSubmit={(event) => void submit(event)}>
        <p className="muted small">
          A reply that is only one of these words, in any case, puts its sender on the list: {settings.data.standardOptOut.join(', ')}. {settings.data.standardOptIn.join(' or ')} takes it off.
        </p>
        <div className="form-row">
          <Field label="Your opt-out words" hint="Besides the standard ones, e.g. in your recipients' language; separated by commas.">
            {(props) => <input {...props} value={draft.optOut} onChange={(e) => setDraft({ ...draft, optOut: e.target.value })} />}
          </Field>
          <Field label="Your opt-in words" hint="Besides START and UNSTOP.">
            {(props) => <input {...props} value={draft.optIn} onChange={(e) => setDraft({ ...draft, optIn: e.target.value })} />}
          </Field>
        </div>
        <fieldset className="checkbox-group">
          <legend>When a number opts out</legend>
          <label className="checkbox">
            <input type="checkbox" checked={draft.cancelQueued} onChange={(e) => setDraft({ ...draft, cancelQueued: e.target.checked })} />
            Cancel and refund what is queued to it
          </label>
        </fieldset>
        <ErrorAlert error={action.error} />
        {saved ? <Alert tone="success" title="Saved" /> : null}
        <div className="form-actions">
          <button type="submit" className="btn btn-secondary" disabled={action.busy}>
            Save keywords
          </button>
        </div>
      </form>
    </Card>
  );
}

export function OptOutsPage() {
  const search = useSearch();
  const { rows, page, more, restart } = useCursorPages<OptOutRow>('/opt-outs', { search });
  const [added, setAdded] = useState<OptOutsAdded | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const action = useAction();

  async function remove() {
    if (removing === null) return;
    if (!(await action.attempt(() => api.delete(`/opt-outs/${encodeURIComponent(removing)}`)))) return;
    setRemoving(null);
    restart();
  }

  async function exportCsv() {
    const all: OptOutRow[] = [];
    const done = await action.run(async () => {
      for (let next: string | null | undefined = undefined; next !== null; ) {
        const answer: OptOutPage = await api.get<OptOutPage>(`/opt-outs${buildQuery({ limit: 1000, cursor: next })}`);
        all.push(...answer.items);
        next = answer.nextCursor;
      }
      return true;
    });
    if (!done) return;
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([optOutsCsv(all)], { type: 'text/csv' }));
    link.download = 'smsq-opt-outs.csv';
    link.click();
    URL.revokeObjectURL(link.href);
  }

  return (
    <>
      <PageHeader
        title="Opt-outs"
        subtitle="Numbers that asked not to get your messages. Nothing is sent or charged to a number on this list; a queued message to it is cancelled and refunded."
        actions={
          <button type="button" className="btn btn-secondary" disabled={action.busy} onClick={() => void exportCsv()}>
            Export CSV
          </button>
        }
      />
      <AddNumbers
        onAdded={(answer) => {
          setAdded(answer);
          restart();
        }}
      />
      {added ? (
        <Alert tone="success" title={`${added.added} ${added.added === 1 ? 'number' : 'numbers'} added`} onDismiss={() => setAdded(null)}>
          <span data-testid="opt-outs-added">
            {added.added} added to the list{added.cancelled > 0 ? `; ${added.cancelled} queued ${added.cancelled === 1 ? 'message' : 'messages'} cancelled and refunded` : ''}.
          </span>
        </Alert>
      ) : null}
      <SearchBar id="opt-outs-search" placeholder="Search by number" inputMode="tel" />
      <ErrorAlert error={page.error ?? action.error} />
      {page.loading && rows.length === 0 ? <Loading /> : null}
      {page.data && rows.length === 0 ? (
        <div className="card">
          <EmptyState title={search ? `No number on the list contains “${search}”` : 'Nobody has opted out'} icon="⊘">
            When a recipient replies STOP, its number lands here and smsq sends it nothing more until it replies START.
          </EmptyState>
        </div>
      ) : null}
      {rows.length > 0 ? (
        <Card>
          <div className="table-wrap">
            <table data-testid="opt-outs-table">
              <thead>
                <tr>
                  <th scope="col">Number</th>
                  <th scope="col">Since</th>
                  <th scope="col">How</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.number}>
                    <td>{row.number}</td>
                    <td>
                      <ZonedTime iso={row.optedOutAt} timeZone={row.timeZone} />
                    </td>
                    <td>
                      <Badge tone={row.source === 'reply' ? 'amber' : 'gray'}>{SOURCE_LABEL[row.source]}</Badge>
                    </td>
                    <td>
                      <button type="button" className="btn btn-ghost btn-sm" onClick={() => setRemoving(row.number)}>
                        Remove
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {more ? (
            <button type="button" className="btn btn-secondary" onClick={more}>
              Show more
            </button>
          ) : null}
        </Card>
      ) : null}
      <Settings />
      <ConfirmDialog open={removing !== null} title={`Remove ${removing ?? ''} from the list?`} confirmLabel="Remove" busy={action.busy} onCancel={() => setRemoving(null)} onConfirm={() => void remove()}>
        Only when the recipient asked for your messages again: smsq will send to it from now on.
      </ConfirmDialog>
    </>
  );
}
