import { PassphraseEntry, PassphraseInUse } from './PassphraseControl';
import { usePassphrase } from './passphrase';

/**
 * "Encrypt": the text is sealed in this browser with the passphrase before it is sent. Ticked
 * without the passphrase held, it asks for it. `unavailable` says why it cannot be ticked.
 */
export function EncryptOption({ checked, onChange, what, unavailable }: { checked: boolean; onChange: (checked: boolean) => void; what: string; unavailable?: string }) {
  const { keyring } = usePassphrase();
  return (
    <div className="encrypt-option" data-testid="encrypt-option">
      <label className="checkbox">
        <input type="checkbox" checked={checked && !unavailable} disabled={Boolean(unavailable)} onChange={(event) => onChange(event.target.checked)} />
        Encrypt the {what} end to end with your passphrase
      </label>
      {unavailable ? <p className="hint">{unavailable}</p> : null}
      {checked && !unavailable ? (
        <>
          {keyring ? <PassphraseInUse label="Encrypting with your passphrase" /> : <PassphraseEntry action="Use passphrase" />}
          <p className="hint">
            Encrypted in this browser before it is sent: smsq keeps only the encrypted text, and your worker decrypts it with the same passphrase just before the phone sends it.
          </p>
        </>
      ) : null}
    </div>
  );
}
