import { CopyButton } from './CopyButton';
import { QrCode } from './QrCode';

/** A secret shown once (a raw API key or worker token), with Copy and, for pairing, a QR code. */
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
          {qrPayload ? (
            <ol className="steps">
              <li>Install and open the smsq gateway app on the Android phone.</li>
              <li>Tap “Pair” and scan this QR code.</li>
              <li>Start the gateway and keep the phone online and charging.</li>
            </ol>
          ) : null}
          <button type="button" className="btn btn-ghost" onClick={onDone}>
            I have saved it
          </button>
        </div>
        {qrPayload ? (
          <div className="secret-qr">
            <QrCode value={qrPayload} />
            <p className="muted small">Scan with the gateway app</p>
          </div>
        ) : null}
      </div>
    </section>
  );
}
