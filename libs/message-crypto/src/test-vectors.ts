/**
 * Fixed inputs and the sealed text they must give, for any implementation of the format (this one's
 * spec, a browser's, a third party's). The same vectors are in docs/guide/encryption.md. `keyHex` is the
 * PBKDF2 output, the AES key itself, so an implementation can tell which step differs.
 */
export interface SealedMessageTestVector {
  passphrase: string;
  saltHex: string;
  keyId: string;
  keyHex: string;
  nonceHex: string;
  plaintext: string;
  sealed: string;
}

export const SEALED_MESSAGE_TEST_VECTORS: readonly SealedMessageTestVector[] = [
  {
    passphrase: 'correct horse battery staple',
    saltHex: '000102030405060708090a0b0c0d0e0f',
    keyId: 'AAECAwQFBgcICQoLDA0ODw',
    keyHex: 'ef177144eec9420cbc1093d2a8b344a92bc506d0d4ec9c028dd19f8324d8c1e6',
    nonceHex: '101112131415161718191a1b',
    plaintext: 'Your smsq code is 482913',
    sealed: '$smsq$1$AAECAwQFBgcICQoLDA0ODw$EBESExQVFhcYGRob$VX0ItzCMxQS6mvqnqJZUk2IYrty0XueYsAeiPx0QzxDSS9HL7kr_RQ',
  },
  {
    passphrase: 'Šifra za poruke 🔐',
    saltHex: 'f0e1d2c3b4a5968778695a4b3c2d1e0f',
    keyId: '8OHSw7Sllod4aVpLPC0eDw',
    keyHex: 'e0c1b2f00509a9cd2ee34648af50c5f05ad716812606d7f1cd3f567711bd03a5',
    nonceHex: 'a1b2c3d4e5f60718293a4b5c',
    plaintext: 'Здраво! Your table for 4 is ready 🍽️👍🏽',
    sealed:
      '$smsq$1$8OHSw7Sllod4aVpLPC0eDw$obLD1OX2BxgpOktc$ASXfvAwr47lwJwfzq56UdtUKBV_tU1tj8pScU5QMXsOywTbimAwnlPRB_FVNrDwQQhEvJnyaXvR-k5Vn0tSCKJZgYWENnw8',
  },
  {
    passphrase: 'correct horse battery staple',
    saltHex: '000102030405060708090a0b0c0d0e0f',
    keyId: 'AAECAwQFBgcICQoLDA0ODw',
    keyHex: 'ef177144eec9420cbc1093d2a8b344a92bc506d0d4ec9c028dd19f8324d8c1e6',
    nonceHex: 'ffffffffffffffffffffffff',
    plaintext: 'a',
    sealed: '$smsq$1$AAECAwQFBgcICQoLDA0ODw$________________$ifVg-DhrP4oWhIay3Xnd5ss',
  },
];
