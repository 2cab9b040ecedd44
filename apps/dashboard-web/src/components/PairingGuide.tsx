import { useId, useState } from 'react';
import { useSession } from '../auth/session';
import { GATEWAY_URL_PLACEHOLDER, DEFAULT_PHONE_NAME, WORKER_FILE, pairCommand, runCommand, type PairingDriver } from '../lib/pairing';
import { Alert } from './Alert';
import { CommandLine } from './CommandLine';

export const PHONES_GUIDE = 'docs/guide/phones.md in the smsq repository';

/** Shown wherever a phone is paired: the API address in the QR code names this machine, which no phone can reach. */
export function UnreachableApiWarning() {
  const { session } = useSession();
  if (!session.apiBaseUrlIsLoopback) return null;
  return (
    <div data-testid="loopback-warning">
      <Alert tone="warning" title="Phones cannot reach the API address">
        The API address is <code>{session.apiBaseUrl}</code>: a phone cannot reach this address; set <code>DASHBOARD_PUBLIC_API_URL</code> to an address the phone can reach (for example{' '}
        <code>http://192.168.1.10:3000</code>), restart the dashboard and create a new key.
      </Alert>
    </div>
  );
}

function WorkerFile({ driver }: { driver: PairingDriver }) {
  const { session } = useSession();
  const where = driver === 'smsgate' ? 'onto a computer with Node.js in the phone’s network' : 'into Termux on the phone';
  if (!session.workerDownloadUrl) {
    return (
      <>
        Put the worker, <code>{WORKER_FILE}</code> (built by <code>npx nx run worker:build</code> into <code>apps/worker/dist/</code>), {where}.
      </>
    );
  }
  const url = new URL(session.workerDownloadUrl, window.location.origin).toString();
  return (
    <>
      Download the worker,{' '}
      <a href={session.workerDownloadUrl} download>
        {WORKER_FILE}
      </a>
      , {where}
      {driver === 'termux' ? (
        <>
          : <CommandLine command={`curl -fLO ${url}`} />
        </>
      ) : (
        '.'
      )}
    </>
  );
}

/**
 * How to pair a phone with a new API key: SMSGate or Termux, then the worker's `pair` command
 * with the key's QR text filled in, then `run`. The QR code beside it carries the same text.
 */
export function PairingGuide({ qrText }: { qrText: string }) {
  const id = useId();
  const [driver, setDriver] = useState<PairingDriver>('smsgate');
  const [gatewayUrl, setGatewayUrl] = useState('');
  const [name, setName] = useState(DEFAULT_PHONE_NAME);
  return (
    <div className="pairing" data-testid="pairing-guide">
      <h3 className="pairing-title">Pair a phone with this key</h3>
      <UnreachableApiWarning />
      <fieldset className="segmented">
        <legend>The phone sends with</legend>
        <label>
          <input type="radio" name={`${id}-driver`} checked={driver === 'smsgate'} onChange={() => setDriver('smsgate')} /> SMS Gateway for Android (SMSGate)
        </label>
        <label>
          <input type="radio" name={`${id}-driver`} checked={driver === 'termux'} onChange={() => setDriver('termux')} /> Termux + Termux:API
        </label>
      </fieldset>
      <ol className="steps">
        {driver === 'smsgate' ? (
          <li>
            On the phone, install <strong>SMS Gateway for Android</strong> (SMSGate, by capcom6: F-Droid, Google Play or its GitHub releases). Turn on <strong>Local Server</strong> and start it; note the address it shows
            (for example <code>http://192.168.1.20:8080</code>), its user and its password.
          </li>
        ) : (
          <li>
            On the phone, install <strong>Termux</strong> and <strong>Termux:API</strong>, both from F-Droid. In Termux run <code>pkg install nodejs termux-api</code>, and let Termux:API send SMS when Android asks.
          </li>
        )}
        <li>
          <WorkerFile driver={driver} />
        </li>
        <li>
          Pair the phone (this registers it and keeps its worker token in a file only you can read):
          <div className="pairing-inputs">
            {driver === 'smsgate' ? (
              <span className="field">
                <label htmlFor={`${id}-url`}>SMSGate’s Local Server address</label>
                <input id={`${id}-url`} type="url" inputMode="url" placeholder={GATEWAY_URL_PLACEHOLDER} value={gatewayUrl} onChange={(e) => setGatewayUrl(e.target.value)} />
              </span>
            ) : null}
            <span className="field">
              <label htmlFor={`${id}-name`}>Phone name</label>
              <input id={`${id}-name`} value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />
            </span>
          </div>
          <CommandLine command={pairCommand({ qrText, driver, gatewayUrl, name })} testId="pair-command" />
        </li>
        <li>
          Start it{driver === 'smsgate' ? ', with SMSGate’s user and password in its environment (never in smsq)' : ' in Termux, and keep the phone charging'}:
          <CommandLine command={runCommand(driver)} testId="run-command" />
          The phone is listed under Phones, connected, from its first poll.
        </li>
      </ol>
      <p className="muted small">
        The QR code holds the same text as the command: any QR app can read it on the phone. The full guide is {PHONES_GUIDE}.
      </p>
    </div>
  );
}
