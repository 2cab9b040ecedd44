import type { ConversationReply, ConversationThread, SendResult, ThreadMessage } from '@smsq/dashboard-api';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { api } from '../../api/client';
import { buildQuery } from '../../api/query';
import { useAction, useApi } from '../../api/useApi';
import { Alert, ErrorAlert } from '../../components/Alert';
import { ZonedTime } from '../../components/Time';
import { Card, Field, Loading, PageHeader, StatusBadge } from '../../components/ui';
import { EncryptOption } from '../../encryption/EncryptOption';
import { MessageText } from '../../encryption/MessageText';
import { PassphraseControl } from '../../encryption/PassphraseControl';
import { usePassphrase } from '../../encryption/passphrase';
import { SealOnce } from '../../lib/sealed-messages';

function Message({ message, timeZone }: { message: ThreadMessage; timeZone: string }) {
  return (
    <li className={`bubble bubble-${message.kind}`} data-testid={`bubble-${message.kind}`}>
      <p className="bubble-text">
        <MessageText message={message.message} encrypted={message.encrypted} />
      </p>
      <p className="bubble-meta muted small">
        <ZonedTime iso={message.at} timeZone={timeZone} />{' '}
        {message.kind === 'out' ? (
          <>
            <StatusBadge status={message.status} /> <Link to={`/tasks/${message.id}`}>#{message.id}</Link>
          </>
        ) : message.phoneId !== null ? (
          `via phone #${message.phoneId}`
        ) : null}
      </p>
    </li>
  );
}

export function ThreadPage() {
  const number = useParams()['number'] ?? '';
  const [before, setBefore] = useState<string | null>(null);
  const [earlier, setEarlier] = useState<ThreadMessage[]>([]);
  const thread = useApi<ConversationThread>(`/conversations/${encodeURIComponent(number)}${buildQuery({ before: before ?? undefined })}`);
  const [draft, setDraft] = useState('');
  const [key, setKey] = useState(() => crypto.randomUUID());
  const [result, setResult] = useState<SendResult | null>(null);
  const action = useAction();
  const [encrypt, setEncrypt] = useState(false);
  const [sealing, setSealing] = useState(false);
  const { keyring } = usePassphrase();
  const sealOnce = useRef(new SealOnce());

  useEffect(() => {
    void api.post(`/conversations/${encodeURIComponent(number)}/read`).catch(() => undefined);
  }, [number]);

  async function reply(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setResult(null);
    if (encrypt && !keyring) return;
    const sent = await action.run(async () => {
      let body: ConversationReply = { message: draft, idempotencyKey: key };
      if (encrypt && keyring) {
        setSealing(true);
        try {
          body = { message: await sealOnce.current.seal(keyring, key, draft), encrypted: true, idempotencyKey: key };
        } finally {
          setSealing(false);
        }
      }
      return api.post<SendResult>(`/conversations/${encodeURIComponent(number)}/reply`, body);
    });
    if (!sent) return;
    setKey(crypto.randomUUID());
    setResult(sent);
    if (!sent.ok) return;
    setDraft('');
    setEarlier([]);
    setBefore(null);
    thread.reload();
  }

  const data = thread.data;
  const messages = [...(data?.messages ?? []), ...earlier];
  return (
    <>
      <PageHeader title={number} eyebrow={<Link to="/conversations">← Conversations</Link>} actions={messages.some((message) => message.encrypted) ? <PassphraseControl /> : null} />
      <ErrorAlert error={thread.error} />
      {!data ? (
        thread.error ? null : <Loading />
      ) : (
        <>
          <Card>
            {data.before ? (
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                onClick={() => {
                  setEarlier(messages);
                  setBefore(data.before);
                }}
              >
                Show earlier
              </button>
            ) : null}
            <ol className="bubbles" data-testid="thread">
              {messages.map((message) => (
                <Message key={`${message.kind}-${message.id}`} message={message} timeZone={data.timeZone} />
              ))}
            </ol>
          </Card>
          <Card title="Reply">
            {data.optedOut ? (
              <Alert tone="warning" title="This number opted out">
                It replied STOP: nothing is sent to it until it replies START, or you take it off the <Link to="/opt-outs">opt-out list</Link>.
              </Alert>
            ) : (
              <form className="form-stack" onSubmit={(event) => void reply(event)}>
                <Field label="Message" hint={data.replyPhone ? `Sent through ${data.replyPhone.name}, the phone the last reply came to.` : 'Sent through your usual phone.'}>
                  {(props) => <textarea {...props} rows={3} required maxLength={3200} value={draft} onChange={(e) => setDraft(e.target.value)} />}
                </Field>
                <EncryptOption
                  checked={encrypt}
                  what="reply"
                  onChange={(checked) => {
                    // Another body is another reply: a retry of the earlier one must not carry it.
                    setEncrypt(checked);
                    setKey(crypto.randomUUID());
                  }}
                />
                <ErrorAlert error={action.error} />
                {result && !result.ok ? (
                  <Alert title="Not sent" tone="error">
                    {result.detail}
                  </Alert>
                ) : null}
                <div className="form-actions">
                  <button type="submit" className="btn btn-primary" disabled={action.busy || (encrypt && !keyring)}>
                    {sealing ? 'Encrypting…' : action.busy ? 'Sending…' : encrypt ? 'Encrypt and send reply (1 credit)' : 'Send reply (1 credit)'}
                  </button>
                </div>
              </form>
            )}
          </Card>
        </>
      )}
    </>
  );
}
