import { useId, useState } from 'react';
import { LockIcon } from './MessageText';
import { usePassphrase } from './passphrase';

/**
 * For the pages that show messages: "Decrypt messages" asks for the passphrase; once given, the
 * page's encrypted messages are opened in this browser until it is forgotten.
 */
export function PassphraseControl() {
  const { keyring } = usePassphrase();
  const [asking, setAsking] = useState(false);
  if (keyring) return <PassphraseInUse />;
  if (!asking) {
    return (
      <button type="button" className="btn btn-secondary" onClick={() => setAsking(true)}>
        <LockIcon /> Decrypt messages
      </button>
    );
  }
  return <PassphraseEntry action="Decrypt" onTaken={() => setAsking(false)} onCancel={() => setAsking(false)} />;
}

/** The passphrase is held: what it does, and the way to drop it. */
export function PassphraseInUse({ label = 'Messages decrypted with your passphrase' }: { label?: string }) {
  const { forget } = usePassphrase();
  return (
    <div className="passphrase-control" data-testid="passphrase-in-use">
      <span className="passphrase-state">
        <LockIcon open /> {label}
      </span>
      <button type="button" className="btn btn-ghost btn-sm" onClick={forget}>
        Forget passphrase
      </button>
    </div>
  );
}

/**
 * The passphrase input. Not a form of its own (it may sit inside the Send form): Enter takes the
 * passphrase without submitting anything around it.
 */
export function PassphraseEntry({ action, onTaken, onCancel }: { action: string; onTaken?: () => void; onCancel?: () => void }) {
  const { remember } = usePassphrase();
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();

  function take() {
    try {
      remember(value);
      setValue('');
      onTaken?.();
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    }
  }

  return (
    <div className="passphrase-entry" data-testid="passphrase-entry">
      <div className="passphrase-row">
        <label htmlFor={id}>Passphrase</label>
        <input
          id={id}
          type="password"
          autoComplete="off"
          spellCheck={false}
          aria-describedby={`${id}-hint`}
          aria-invalid={problem ? true : undefined}
          value={value}
          onChange={(event) => {
            setValue(event.target.value);
            setProblem(null);
          }}
          onKeyDown={(event) => {
            if (event.key !== 'Enter') return;
            event.preventDefault();
            take();
          }}
        />
        <button type="button" className="btn btn-primary btn-sm" onClick={take}>
          {action}
        </button>
        {onCancel ? (
          <button type="button" className="btn btn-ghost btn-sm" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
      <p className="hint" id={`${id}-hint`}>
        Kept in this page only, never sent to smsq; reloading the page forgets it.
      </p>
      {problem ? (
        <p className="text-danger small" role="alert">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
