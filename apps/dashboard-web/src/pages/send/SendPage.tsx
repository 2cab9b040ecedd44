import type { CheckResult, OutgoingSms, SendResult, TemplateRow } from '@smsq/dashboard-api';
import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { Link } from 'react-router';
import { api } from '../../api/client';
import { useAction, useApi } from '../../api/useApi';
import { Alert, ErrorAlert } from '../../components/Alert';
import { Badge, Card, Field, PageHeader } from '../../components/ui';
import { EncryptOption } from '../../encryption/EncryptOption';
import { LockIcon } from '../../encryption/MessageText';
import { usePassphrase } from '../../encryption/passphrase';
import { messagesOf, parseCsv, placeholdersOf, type BulkRow, type CsvTable } from '../../lib/bulk-send';
import { formatCredits } from '../../lib/format';
import { SealOnce, sealedMessages } from '../../lib/sealed-messages';

const MAX_MESSAGES = 1000;

/**
 * The key of one send: kept while the user retries the same send (a lost answer then charges
 * nothing twice), replaced as soon as what would be sent changes.
 */
function useSendKey(): [string, () => void] {
  const [key, setKey] = useState(() => crypto.randomUUID());
  return [key, () => setKey(crypto.randomUUID())];
}

function sendMessages(messages: OutgoingSms[], idempotencyKey: string) {
  return api.post<{ results: SendResult[] }>('/send', { messages, idempotencyKey });
}

/** Ticked, the messages go as priority "high": past the send windows, ahead of normal ones. */
function HighPriority({ checked, onChange }: { checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <label className="checkbox">
      <input type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} />
      High priority (one-time codes, alerts): ignores send windows, goes first
    </label>
  );
}

/** Pick one of the client's templates (none: write the message). */
function TemplatePicker({ templates, value, onChange, unavailable }: { templates: TemplateRow[] | undefined; value: number | null; onChange: (template: TemplateRow | null) => void; unavailable?: string }) {
  if (!templates?.length) return null;
  return (
    <Field label="Template" hint={unavailable ?? <>Saved on the <Link to="/templates">Templates</Link> page.</>}>
      {(props) => (
        <select {...props} disabled={Boolean(unavailable)} value={value ?? ''} onChange={(e) => onChange(templates.find((template) => template.id === Number(e.target.value)) ?? null)}>
          <option value="">None: write the message</option>
          {templates.map((template) => (
            <option key={template.id} value={template.id}>
              {template.name}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

function SendOne({ templates }: { templates: TemplateRow[] | undefined }) {
  const [draft, setDraft] = useState({ recipient: '', message: '', scheduledAt: '', highPriority: false });
  const [template, setTemplate] = useState<TemplateRow | null>(null);
  const [variables, setVariables] = useState<Record<string, string>>({});
  const [key, renewKey] = useSendKey();
  const action = useAction();
  const [result, setResult] = useState<SendResult | null>(null);
  const [encrypt, setEncrypt] = useState(false);
  const [sealing, setSealing] = useState(false);
  const { keyring } = usePassphrase();
  const sealOnce = useRef(new SealOnce());
  // A template is never sealed (smsq fills it in): the two are not offered together.
  const encrypting = encrypt && !template;

  function edit(change: Partial<typeof draft>) {
    setDraft({ ...draft, ...change });
    renewKey();
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setResult(null);
    if (encrypting && !keyring) return;
    const answer = await action.run(async () => {
      const text = template ? { templateId: template.id, variables } : encrypting && keyring ? { message: await sealed(keyring), encrypted: true } : { message: draft.message };
      return sendMessages([{ recipient: draft.recipient, ...text, ...(draft.scheduledAt ? { scheduledAt: draft.scheduledAt } : {}), ...(draft.highPriority ? { priority: 'high' as const } : {}) }], key);
    });
    const sent = answer?.results[0];
    // Only a send with no answer keeps its key for the retry: after an answer, pressing Send again is a new send.
    if (!sent) return;
    renewKey();
    setResult(sent);
    if (sent.ok) {
      setDraft({ recipient: '', message: '', scheduledAt: '', highPriority: false });
      setVariables({});
    }
  }

  /** The text sealed with the passphrase, once for all tries of this send. */
  async function sealed(held: NonNullable<typeof keyring>): Promise<string> {
    setSealing(true);
    try {
      return await sealOnce.current.seal(held, key, draft.message);
    } finally {
      setSealing(false);
    }
  }

  return (
    <Card title="Send SMS">
      <form className="form-stack" onSubmit={(event) => void submit(event)}>
        <div className="form-row">
          <Field label="Recipient" hint="In international form (+381…), or a local number of your region.">
            {(props) => <input {...props} inputMode="tel" autoComplete="off" required maxLength={64} value={draft.recipient} onChange={(e) => edit({ recipient: e.target.value })} />}
          </Field>
          <Field label="Send at" hint="Your local time; leave empty to send now.">
            {(props) => <input {...props} type="datetime-local" value={draft.scheduledAt} onChange={(e) => edit({ scheduledAt: e.target.value })} />}
          </Field>
        </div>
        <TemplatePicker
          templates={templates}
          value={template?.id ?? null}
          unavailable={encrypt ? 'Not with encryption: smsq would have to read the text to fill in a template.' : undefined}
          onChange={(chosen) => {
            setTemplate(chosen);
            setVariables({});
            renewKey();
          }}
        />
        {template ? (
          <>
            <p className="muted small" data-testid="template-body">
              {template.body}
            </p>
            {template.placeholders.map((name) => (
              <Field key={name} label={name}>
                {(props) => (
                  <input
                    {...props}
                    required
                    value={variables[name] ?? ''}
                    onChange={(e) => {
                      setVariables({ ...variables, [name]: e.target.value });
                      renewKey();
                    }}
                  />
                )}
              </Field>
            ))}
          </>
        ) : (
          <Field label="Message" hint={`${[...draft.message].length} of 1600 characters`}>
            {(props) => <textarea {...props} rows={4} required maxLength={3200} value={draft.message} onChange={(e) => edit({ message: e.target.value })} />}
          </Field>
        )}
        <HighPriority checked={draft.highPriority} onChange={(highPriority) => edit({ highPriority })} />
        <EncryptOption
          checked={encrypt}
          what="message"
          unavailable={template ? 'Not with a template: smsq would have to read the text to fill it in.' : undefined}
          onChange={(checked) => {
            setEncrypt(checked);
            renewKey();
          }}
        />
        <ErrorAlert error={action.error} />
        {result && !result.ok ? (
          <Alert title="Not sent" tone="error">
            {result.detail}
          </Alert>
        ) : null}
        {result?.ok ? (
          <Alert title="Queued" tone="success">
            <Link to={`/tasks/${result.id}`}>Task #{result.id}</Link> is queued for {result.scheduledAt}; {formatCredits(result.creditsRemaining)} credits left.
          </Alert>
        ) : null}
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={action.busy || (encrypting && !keyring)}>
            {sealing ? 'Encrypting…' : action.busy ? 'Sending…' : encrypting ? 'Encrypt and send (1 credit)' : 'Send (1 credit)'}
          </button>
        </div>
      </form>
    </Card>
  );
}

function SendMany({ templates }: { templates: TemplateRow[] | undefined }) {
  const [table, setTable] = useState<CsvTable | null>(null);
  const [fileName, setFileName] = useState('');
  const [template, setTemplate] = useState('');
  const [scheduledAt, setScheduledAt] = useState('');
  const [highPriority, setHighPriority] = useState(false);
  const [encrypt, setEncrypt] = useState(false);
  const [sealing, setSealing] = useState(false);
  const { keyring } = usePassphrase();
  // What is checked is what is sent: sealed once, at the preview, so that the send (and its retries) carries the same texts.
  const [preview, setPreview] = useState<{ rows: BulkRow[]; outgoing: Map<number, OutgoingSms>; checks: Map<number, CheckResult>; encrypted: boolean } | null>(null);
  const [sent, setSent] = useState<{ queued: number; refused: Array<{ row: number; detail: string }>; creditsRemaining: number | null } | null>(null);
  const [key, renewKey] = useSendKey();
  const action = useAction();

  const built = table ? messagesOf(table, template, scheduledAt || undefined) : null;
  const problem = built?.problem ?? (table && table.rows.length > MAX_MESSAGES ? `the file has ${table.rows.length} rows; at most ${MAX_MESSAGES} are sent at once` : undefined);

  function changed() {
    setPreview(null);
    setSent(null);
    renewKey();
  }

  async function chooseFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    changed();
    if (!file) return setTable(null);
    setFileName(file.name);
    setTable(parseCsv(await file.text()));
  }

  async function check(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!built || problem || (encrypt && !keyring)) return;
    const sendable = built.rows.flatMap((row) => ('sms' in row ? [row] : []));
    const checks = new Map<number, CheckResult>();
    const outgoing = new Map<number, OutgoingSms>();
    if (sendable.length > 0) {
      const answer = await action.run(async () => {
        const messages = encrypt && keyring ? await sealedForPreview(keyring, sendable.map((row) => row.sms)) : sendable.map((row) => row.sms);
        messages.forEach((sms, index) => outgoing.set(sendable[index]!.row, sms));
        return api.post<{ results: CheckResult[] }>('/send/check', { messages });
      });
      if (!answer) return;
      answer.results.forEach((result, index) => checks.set(sendable[index]!.row, result));
    }
    setPreview({ rows: built.rows, outgoing, checks, encrypted: encrypt });
  }

  async function sealedForPreview(held: NonNullable<typeof keyring>, messages: OutgoingSms[]): Promise<OutgoingSms[]> {
    setSealing(true);
    try {
      return await sealedMessages(held, messages);
    } finally {
      setSealing(false);
    }
  }

  async function send() {
    if (!preview) return;
    const ready = preview.rows.flatMap((row) => {
      const sms = preview.outgoing.get(row.row);
      return sms && preview.checks.get(row.row)?.ok ? [{ row: row.row, sms }] : [];
    });
    const answer = await action.run(() => sendMessages(ready.map((row) => (highPriority ? { ...row.sms, priority: 'high' as const } : row.sms)), key));
    if (!answer) return;
    const refused = answer.results.flatMap((result, index) => (result.ok ? [] : [{ row: ready[index]!.row, detail: `${result.error}: ${result.detail}` }]));
    // Messages are debited side by side, not in row order: the balance after all of them is the lowest any answer saw.
    const balances = answer.results.flatMap((result) => (result.ok ? [result.creditsRemaining] : []));
    setSent({ queued: balances.length, refused, creditsRemaining: balances.length ? Math.min(...balances) : null });
    setPreview(null);
    renewKey();
  }

  const ready = preview ? [...preview.checks.values()].filter((result) => result.ok).length : 0;
  const placeholders = placeholdersOf(template);
  return (
    <Card title="Send to many">
      <form className="form-stack" onSubmit={(event) => void check(event)}>
        <p className="muted">
          Upload a CSV file with a <code>recipient</code> column (or <code>phone</code>, <code>number</code>, <code>mobile</code>) and any others you like. Write the message with{' '}
          <code>{'{column}'}</code> placeholders; each row gets its own values. A <code>scheduled_at</code> column sets a row’s own time.
        </p>
        <div className="form-row">
          <Field label="CSV file" hint={table ? `${fileName}: ${table.rows.length} rows; columns ${table.columns.join(', ')}` : 'Comma, semicolon or tab separated; the first line names the columns.'}>
            {(props) => <input {...props} type="file" accept=".csv,text/csv,text/plain" required onChange={(event) => void chooseFile(event)} />}
          </Field>
          <Field label="Send at" hint="Your local time, for rows without their own; empty sends now.">
            {(props) => (
              <input
                {...props}
                type="datetime-local"
                value={scheduledAt}
                onChange={(e) => {
                  setScheduledAt(e.target.value);
                  changed();
                }}
              />
            )}
          </Field>
        </div>
        <TemplatePicker
          templates={templates}
          value={templates?.find((saved) => saved.body === template)?.id ?? null}
          onChange={(chosen) => {
            setTemplate(chosen?.body ?? '');
            changed();
          }}
        />
        <Field label="Message template" hint={placeholders.length ? `Filled from: ${placeholders.join(', ')}` : 'For example: Hi {name}, your appointment is at {time}.'}>
          {(props) => (
            <textarea
              {...props}
              rows={4}
              required
              value={template}
              onChange={(e) => {
                setTemplate(e.target.value);
                changed();
              }}
            />
          )}
        </Field>
        <HighPriority
          checked={highPriority}
          onChange={(checked) => {
            setHighPriority(checked);
            renewKey();
          }}
        />
        <EncryptOption
          checked={encrypt}
          what="messages"
          onChange={(checked) => {
            setEncrypt(checked);
            changed();
          }}
        />
        {problem ? (
          <Alert title="This file cannot be sent" tone="error">
            {problem}
          </Alert>
        ) : null}
        <ErrorAlert error={action.error} />
        <div className="form-actions">
          <button type="submit" className="btn btn-secondary" disabled={action.busy || !table || Boolean(problem) || (encrypt && !keyring)}>
            {sealing ? 'Encrypting…' : 'Preview'}
          </button>
        </div>
      </form>
      {preview ? (
        <div className="form-stack" data-testid="send-preview">
          <p>
            <strong>{ready}</strong> of {preview.rows.length} rows are ready; rows with a problem are not sent and cost nothing.
          </p>
          {preview.encrypted ? (
            <p className="muted small" data-testid="preview-encrypted">
              <LockIcon /> Encrypted in this browser: smsq cannot read the messages, so it cannot tell how many SMS parts each takes until its phone sends it.
            </p>
          ) : null}
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Row</th>
                  <th scope="col">Recipient</th>
                  <th scope="col">Message</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {preview.rows.map((row) => {
                  const checked = preview.checks.get(row.row);
                  const problemText = 'problem' in row ? row.problem : checked && !checked.ok ? checked.detail : null;
                  return (
                    <tr key={row.row}>
                      <td>{row.row}</td>
                      <td>{checked?.ok ? checked.recipient : 'sms' in row ? row.sms.recipient : ''}</td>
                      <td className="message-cell">{checked?.ok && !preview.encrypted ? checked.message : 'sms' in row && 'message' in row.sms ? row.sms.message : ''}</td>
                      <td>
                        {checked && !checked.ok && checked.error === 'recipient_opted_out' ? <Badge tone="amber">Opted out</Badge> : null}{' '}
                        {problemText ? <span className="text-danger">{problemText}</span> : checked?.ok ? `${checked.scheduledAt}, ${checked.segments === null ? 'SMS parts not known (encrypted)' : `${checked.segments} SMS`}` : null}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <div className="form-actions">
            <button type="button" className="btn btn-primary" disabled={action.busy || ready === 0} onClick={() => void send()}>
              {action.busy ? 'Sending…' : `Send ${ready} ${ready === 1 ? 'message' : 'messages'} (${ready} ${ready === 1 ? 'credit' : 'credits'})`}
            </button>
          </div>
        </div>
      ) : null}
      {sent ? (
        <Alert title={`${sent.queued} queued`} tone={sent.refused.length ? 'warning' : 'success'}>
          <span data-testid="send-summary">
            {sent.queued} {sent.queued === 1 ? 'message is' : 'messages are'} queued{sent.creditsRemaining === null ? '' : `; ${formatCredits(sent.creditsRemaining)} credits left`}. See them under <Link to="/tasks">Tasks</Link>.
          </span>
          {sent.refused.length ? (
            <ul>
              {sent.refused.map((refused) => (
                <li key={refused.row}>
                  Row {refused.row}: {refused.detail}
                </li>
              ))}
            </ul>
          ) : null}
        </Alert>
      ) : null}
    </Card>
  );
}

export function SendPage() {
  const templates = useApi<TemplateRow[]>('/templates');
  return (
    <>
      <PageHeader title="Send" subtitle="Queue SMS from here, with the same rules and credits as the API." />
      <SendOne templates={templates.data} />
      <SendMany templates={templates.data} />
    </>
  );
}
