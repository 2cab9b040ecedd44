import { CopyButton } from './CopyButton';
import { PairingGuide } from './PairingGuide';
import { QrCode } from './QrCode';

/** A secret shown once (a raw API key or worker token), with Copy and, for pairing, the QR code and the steps. */
export function NewSecret({ title, secret, testId, qrPayload, onDone, note }: { title: string; secret: string; testId: string; qrPayload?: string | null; onDone: () => void; note?: string }) {
  return (
    <section className="card secret-card">
      <div className="secret-layout">
        <div className="secret-main">
          <h2 className="card-title">{title}</h2>
          <p className="warning-text">
            <strong>Copy it now.</strong> {note ?? 'For your security it will not be shown again.'}
          </p>
          <div className="secret-row">
            <code className="secret" data-testid={testId}>
              {secret}
            </code>
            <CopyButton text={secret} />
          </div>
          {qrPayload ? <PairingGuide qrText={qrPayload} /> : null}
          <button type="button" className="btn btn-ghost" onClick={onDone}>
            I have saved it
          </button>
        </div>
        {qrPayload ? (
          <div className="secret-qr">
            <QrCode value={qrPayload} />
            <p className="muted small">Pairing QR code: the API address and this key</p>
          </div>
        ) : null}
      </div>
    </section>
  );
}
