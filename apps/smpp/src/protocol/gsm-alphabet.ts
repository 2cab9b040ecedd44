/** The escape septet: the next septet is read from the extension table. */
export const GSM_ESCAPE = 0x1b;

// GSM 03.38 default alphabet by septet; position 0x1B is the escape and never a character.
const BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\u001bÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';

const EXTENSION: ReadonlyArray<readonly [number, string]> = [
  [0x0a, '\f'],
  [0x14, '^'],
  [0x28, '{'],
  [0x29, '}'],
  [0x2f, '\\'],
  [0x3c, '['],
  [0x3d, '~'],
  [0x3e, ']'],
  [0x40, '|'],
  [0x65, '€'],
];

export const GSM_BASIC_BY_SEPTET: readonly string[] = [...BASIC];
export const GSM_EXTENSION_BY_SEPTET: ReadonlyMap<number, string> = new Map(EXTENSION);

/** Septets that write a character: one for the basic table, two (escape first) for the extension. */
export const GSM_SEPTETS_BY_CHARACTER: ReadonlyMap<string, readonly number[]> = new Map<string, readonly number[]>([
  ...GSM_BASIC_BY_SEPTET.flatMap((character, septet): Array<[string, number[]]> => (septet === GSM_ESCAPE ? [] : [[character, [septet]]])),
  ...EXTENSION.map(([septet, character]): [string, number[]] => [character, [GSM_ESCAPE, septet]]),
]);
