import { openingProblemText } from '../lib/sealed-messages';
import { useOpenedMessage } from './passphrase';

/** A padlock, closed or open; decorative: the text beside it says what it means. */
export function LockIcon({ open = false }: { open?: boolean }) {
  return (
    <svg className="lock-icon" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
      <path d={open ? 'M5 7V5a3 3 0 0 1 5.8-1' : 'M5 7V5a3 3 0 0 1 6 0v2'} fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
      <rect x="3" y="7" width="10" height="7.5" rx="1.5" fill="currentColor" />
    </svg>
  );
}

/** What stands for an encrypted message the page cannot (or does not try to) open: never its ciphertext. */
export function EncryptedLabel() {
  return (
    <span className="sealed" data-testid="encrypted-message">
      <LockIcon /> Encrypted message
    </span>
  );
}

/**
 * A message's text: as it is when plain; when encrypted, opened in this browser with the
 * passphrase given on the page, and otherwise only marked as encrypted.
 */
export function MessageText({ message, encrypted }: { message: string; encrypted: boolean }) {
  return encrypted ? <OpenedText sealed={message} /> : <>{message}</>;
}

function OpenedText({ sealed }: { sealed: string }) {
  const opened = useOpenedMessage(sealed);
  if (opened === 'locked') return <EncryptedLabel />;
  if (opened === 'opening') {
    return (
      <span className="sealed" data-testid="decrypting-message">
        <LockIcon /> Decrypting…
      </span>
    );
  }
  if (!opened.ok) {
    return (
      <span className="sealed sealed-failed" data-testid="undecryptable-message">
        <LockIcon /> {openingProblemText(opened.problem)}
      </span>
    );
  }
  return (
    <span className="opened" data-testid="decrypted-message" title="Encrypted; decrypted in this browser">
      <LockIcon open />
      <span className="sr-only">Decrypted: </span>
      {opened.text}
    </span>
  );
}
