import { PassphraseKeyring } from '@smsq/message-crypto';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { MessageOpener, type Opened } from '../lib/sealed-messages';

interface PassphraseContextValue {
  /** Null until the user gives the passphrase. */
  keyring: PassphraseKeyring | null;
  opener: MessageOpener | null;
  /** Keeps the passphrase in this page's memory (inside the keyring); throws a RangeError, in words for the user, for one that cannot be used. */
  remember: (passphrase: string) => void;
  forget: () => void;
}

const PassphraseContext = createContext<PassphraseContextValue | null>(null);

export function usePassphrase(): PassphraseContextValue {
  const value = useContext(PassphraseContext);
  if (!value) throw new Error('usePassphrase outside PassphraseProvider');
  return value;
}

/**
 * The passphrase of the signed-in user's encrypted messages, in this page's memory only: never
 * stored (no storage, no cookie) and never sent to the server. Reloading the page or signing out
 * forgets it. One keyring per passphrase, so that each key is derived once.
 */
export function PassphraseProvider({ children }: { children: ReactNode }) {
  const [held, setHeld] = useState<{ keyring: PassphraseKeyring; opener: MessageOpener } | null>(null);
  const remember = useCallback((passphrase: string) => {
    const keyring = new PassphraseKeyring(passphrase);
    setHeld({ keyring, opener: new MessageOpener(keyring) });
  }, []);
  const forget = useCallback(() => setHeld(null), []);
  const value = useMemo(() => ({ keyring: held?.keyring ?? null, opener: held?.opener ?? null, remember, forget }), [held, remember, forget]);
  return <PassphraseContext.Provider value={value}>{children}</PassphraseContext.Provider>;
}

/** A sealed message as the page can show it now: `locked` without the passphrase, `opening` while WebCrypto works. */
export type OpenedState = 'locked' | 'opening' | Opened;

export function useOpenedMessage(sealed: string): OpenedState {
  const { opener } = usePassphrase();
  const [settled, setSettled] = useState<{ opener: MessageOpener; sealed: string; opened: Opened } | null>(null);

  useEffect(() => {
    if (!opener || opener.opened(sealed)) return;
    let shown = true;
    void opener.open(sealed).then((opened) => {
      if (shown) setSettled({ opener, sealed, opened });
    });
    return () => {
      shown = false;
    };
  }, [opener, sealed]);

  if (!opener) return 'locked';
  const known = opener.opened(sealed) ?? (settled?.opener === opener && settled.sealed === sealed ? settled.opened : undefined);
  return known ?? 'opening';
}
