import fc from 'fast-check';

export const BODY_LIMIT = 64 * 1024;

/** Pieces that break naive code: NUL, lone surrogates, bidi marks, zero-width, emoji sequences, injections. */
const NASTY_PIECES = [
  '\u0000',
  '\ud800',
  '\udfff',
  '\udc00\ud800',
  '\u202e',
  '\u200f',
  '\u200b',
  '\ufeff',
  '\u0085',
  '\u2028',
  '😀',
  '👨‍👩‍👧‍👦',
  '🇷🇸',
  'é',
  '\r\n',
  '\t',
  '\\',
  '"',
  "'",
  '%00',
  '%',
  '../',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '${7*7}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  'null',
  'NaN',
  '١٢٣',
  '\u{10ffff}',
  '\u00a0',
];

/** Strings a hostile or careless client sends. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 15 }),
  fc.array(fc.oneof(fc.constantFrom(...NASTY_PIECES), fc.string({ maxLength: 4 })), { maxLength: 8 }).map((parts) => parts.join('')),
);

/** Any JSON value (unicode strings included), as text. */
export const anyJsonText: fc.Arbitrary<string> = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
  fc.jsonValue({ maxDepth: 3, stringUnit: 'binary' }).map((value) => JSON.stringify(value)),
  fc
    .anything({ maxDepth: 3, withNullPrototype: true, withMap: true, withSet: true, withDate: true, withTypedArray: true, withSparseArray: true, withBoxedValues: true })
    .map((value) => {
      try {
        return JSON.stringify(value) ?? 'null';
      } catch {
        return 'null';
      }
    }),
);

/** JSON literals whose text matters: numbers beyond doubles, negative zero, odd spellings. */
const oddJsonLiterals = fc.constantFrom(
  '1e400',
  '-1e400',
  '-0',
  '0',
  '-1',
  '1.5',
  '1.0',
  '2147483648',
  '9007199254740993',
  '123456789012345678901234567890',
  'true',
  'false',
  'null',
  '""',
  '" "',
  '[]',
  '{}',
  '[[[[[[[[]]]]]]]]',
  '"\\u0000"',
  '"\\ud800"',
  '"\\udfff\\ud800"',
);

/** A value for one field, as JSON text: of any type, odd literal or nasty string. */
export const fieldText: fc.Arbitrary<string> = fc.oneof(oddJsonLiterals, nastyString.map((text) => JSON.stringify(text)), anyJsonText);

/** An object body from `[key, JSON text]` pairs, so duplicate keys and odd literals survive. */
export function objectText(entries: [string, string][]): string {
  return `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${value}`).join(',')}}`;
}

/** An optional field: absent, or present with the given text. */
function field(name: string, value: fc.Arbitrary<string>): fc.Arbitrary<[string, string][]> {
  return fc.option(value, { nil: undefined, freq: 3 }).map((text) => (text === undefined ? [] : [[name, text] as [string, string]]));
}

/** Extra keys beside the expected ones: prototype pollution attempts and junk. */
const extraKeys: fc.Arbitrary<[string, string][]> = fc.array(fc.tuple(fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'id', 'client_id', 'status', 'charged', ''), nastyString), fieldText), { maxLength: 2 });

/** An object with the endpoint's keys, each absent, right or wrong in type or value, in any order, perhaps repeated. */
export function shapedObject(fields: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<string> {
  const parts = Object.entries(fields).map(([name, good]) => field(name, fc.oneof({ weight: 3, arbitrary: good }, { weight: 2, arbitrary: fieldText })));
  return fc.tuple(fc.tuple(...parts), extraKeys, fc.boolean(), fc.boolean()).map(([groups, extras, shuffle, repeat]) => {
    let entries = [...groups.flat(), ...extras];
    if (shuffle) entries = entries.reverse();
    if (repeat && entries.length > 0) entries = [...entries, entries[0]!];
    return objectText(entries);
  });
}

const str = (arb: fc.Arbitrary<string>) => arb.map((text) => JSON.stringify(text));

export const goodRecipient = fc.constantFrom('+381641234567', '0641234567', '+381 64 123-45-67', '(064) 123.45.67', '+1 202 555 0143', '+44 20 7946 0958', '00381641234567');
export const goodMessage = fc.oneof(
  fc.string({ minLength: 1, maxLength: 40 }).filter((text) => text.trim() !== ''),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }).filter((text) => text.trim() !== '' && !text.includes('\u0000')),
  fc.constantFrom('😀'.repeat(1600), '😀'.repeat(1601), 'x'.repeat(1600), 'x'.repeat(1601), 'a\u0000b', 'ok\ud800', '\u202eevil', ' ', '\u200b'),
);
const scheduledAt = fc.oneof(
  fc.constantFrom(
    '2020-01-01 10:00:00',
    '2030-06-01T08:30',
    '2030-06-01T08:30:15',
    '2030-06-01 08:30',
    '2025-02-29 10:00',
    '2024-02-29 10:00:00',
    '2030-03-31 02:30',
    '2030-10-27 02:30:00',
    '9999-12-31 23:59:59',
    '0999-01-01 00:00',
    '2030-13-01 00:00',
    '2030-06-01 24:00',
    '2030-06-01T08:30:00Z',
    '2030-06-01T08:30:00.000+02:00',
    '',
    '  2030-06-01 08:30  ',
  ),
  nastyString,
  fc.date({ noInvalidDate: true }).map((date) => date.toISOString().replace('T', ' ').slice(0, 19)),
);

export function createTaskBody(phoneIds: number[]): fc.Arbitrary<string> {
  return shapedObject({
    recipient: fc.oneof(str(goodRecipient), str(nastyString)),
    message: str(goodMessage),
    phone_id: fc.oneof(fc.constantFrom(...phoneIds.map(String)), fc.integer().map(String), fc.constantFrom(...phoneIds.map((id) => JSON.stringify(String(id))))),
    scheduled_at: str(scheduledAt),
  });
}

export const registerPhoneBody: fc.Arbitrary<string> = shapedObject({
  name: str(fc.oneof(fc.constantFrom('phone', 'x'.repeat(100), 'x'.repeat(101), ' '), nastyString)),
  device_id: str(fc.oneof(fc.constantFrom('device-1', 'device-2', 'x'.repeat(200), 'x'.repeat(201)), nastyString)),
  url: str(fc.oneof(fc.constantFrom('http://127.0.0.1:9/', 'https://example.org/send', 'javascript:alert(1)', 'file:///etc/passwd', 'http://', 'ftp://x'), nastyString)),
});

export function taskStatusBody(taskIds: () => number[]): fc.Arbitrary<string> {
  return shapedObject({
    id: fc.oneof(
      fc.constant(0).map(() => String(taskIds()[0] ?? 1)),
      fc.nat({ max: 100 }).map((n) => String(taskIds()[n % Math.max(1, taskIds().length)] ?? 1)),
      fc.integer().map(String),
    ),
    status: str(fc.oneof(fc.constantFrom('sent', 'failed', 'delivered', 'SENT', 'pending', 'claimed', 'sent ', ''), nastyString)),
    error: str(nastyString),
  });
}

const inboundItem = shapedObject({
  from: str(fc.oneof(fc.constantFrom('+381641234567', '0641234567', 'VODAFONE', 'A'.repeat(33), '+', '00', '1'), nastyString)),
  message: str(fc.oneof(goodMessage, fc.constantFrom('x'.repeat(4000), 'x'.repeat(4001)), nastyString)),
  received_at: str(fc.oneof(scheduledAt, fc.date({ noInvalidDate: true }).map((date) => date.toISOString()), fc.constantFrom('2030-06-01T08:30:00+99:00', '1970-01-01T00:00:00Z', '+275760-09-13T00:00:00.000Z', '-000001-01-01T00:00:00Z'))),
  external_id: str(fc.oneof(fc.constantFrom('ext-1', 'ext-2', 'x'.repeat(200), 'x'.repeat(201)), nastyString)),
});

export const inboundBody: fc.Arbitrary<string> = fc.oneof(
  inboundItem,
  fc.array(inboundItem, { maxLength: 4 }).map((items) => `{"messages":[${items.join(',')}]}`),
  fc.constantFrom('{"messages":[]}', '{"messages":{}}', '{"messages":null}', `{"messages":[${Array.from({ length: 501 }, () => '{"from":"+381641234567","message":"m"}').join(',')}]}`),
);

export const phoneHealthBody: fc.Arbitrary<string> = shapedObject({
  battery_percent: fc.oneof(fc.integer({ min: 0, max: 100 }).map(String), fc.constantFrom('-1', '101', '50.5', '1e2', '"50"', 'null', 'true')),
  charging: fc.constantFrom('true', 'false', 'null', '"true"', '1', '0'),
  connection: str(fc.oneof(fc.constantFrom('wifi', 'LTE', '5G 📶', 'x'.repeat(40), 'x'.repeat(41), '', ' ', 'wi\nfi', '\u202e'), nastyString)),
});

/** Bodies that are not JSON, half JSON, or JSON nested deep enough to hurt a recursive parser. */
export const nonJsonText: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.constantFrom('{', '{"recipient":', '[1,2', 'NaN', 'undefined', "{'a':1}", '{"a":1,}', '{"a":1} {"b":2}', '\ufeff{"recipient":"+381641234567","message":"m"}', '/* c */ {}', 'recipient=+381641234567&message=hi', '<xml/>', '\u0000', ' ', '\r\n'),
  fc.integer({ min: 1, max: 30_000 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
  fc.integer({ min: 1, max: 6_000 }).map((depth) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)),
  fc.integer({ min: 1, max: 30_000 }).map((depth) => '['.repeat(depth)),
);

/** A filler of one repeated unit, sized so that the whole body is `target` bytes (or a unit more). */
export function bodyOfSize(target: number, unit: string, make: (filler: string) => string): string {
  const overhead = Buffer.byteLength(make(''));
  const unitBytes = Buffer.byteLength(JSON.stringify(unit)) - 2;
  const count = Math.max(0, Math.ceil((target - overhead) / unitBytes));
  return make(unit.repeat(count));
}

/** Body sizes right at, just under and just over the limit, and well beyond it. */
export const sizeNearLimit = fc.oneof(
  fc.integer({ min: BODY_LIMIT - 8, max: BODY_LIMIT + 8 }),
  fc.integer({ min: BODY_LIMIT - 4_000, max: BODY_LIMIT + 4_000 }),
  fc.constantFrom(BODY_LIMIT * 4, 1_048_576),
);
export const fillerUnit = fc.constantFrom('x', 'é', '😀', '\u202e', '\u0000', '\ud800', '"');

/** Header values node:http will put on the wire: tab, printable ASCII and latin-1 bytes. */
export const headerValue = (maxLength: number) =>
  fc.string({ unit: fc.oneof({ weight: 5, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) }, fc.constant(0x09), fc.integer({ min: 0x80, max: 0xff })).map((code) => String.fromCharCode(code)), maxLength });

/** Content types a client may send; the gateway reads every body as JSON whatever it says. */
export const contentTypes = fc.constantFrom<string[]>(
  ['application/json'],
  ['application/json; charset=utf-8'],
  [],
  ['text/plain'],
  ['application/x-www-form-urlencoded'],
  ['multipart/form-data; boundary=xyz'],
  ['application/xml'],
  ['application/octet-stream'],
  ['application/json; charset=utf-16'],
  ['application/json', 'text/plain'],
  ['APPLICATION/JSON'],
  ['*/*'],
);

/** Content-Type values that are not a media type at all. */
export const malformedContentTypes = fc.oneof(
  fc.constantFrom('', ';;;', 'application/json;charset=', '/', 'application/', 'json', '; charset=utf-8', '=', 'application/json;;'),
  headerValue(30),
);

/** A path segment from arbitrary text: UTF-8 bytes percent-encoded, or raw when they are safe on a request line. */
export function pathSegment(text: string, raw: boolean): string {
  const bytes = Buffer.from(text, 'utf8');
  let out = '';
  for (const byte of bytes) {
    const char = String.fromCharCode(byte);
    out += raw && byte > 0x20 && byte < 0x7f && !'?#%'.includes(char) ? char : `%${byte.toString(16).padStart(2, '0').toUpperCase()}`;
  }
  return out;
}

export const oddIds = fc.oneof(
  fc.constantFrom('0', '-1', '1.5', '1e3', '0x10', '+1', '%201', '01', '2147483647', '2147483648', '9007199254740993', '99999999999999999999999999999999', '%00', '1%00', '..', '.', '%2F', '%2e%2e', 'null', 'NaN', 'Infinity', '%D9%A1', '1;DROP%20TABLE%20tasks', '%31', '1%20'),
  fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String),
  fc.tuple(nastyString, fc.boolean()).map(([text, raw]) => pathSegment(text, raw)),
);

/** Paths whose percent-encoding is broken: a lone `%`, bad hex, overlong or surrogate UTF-8. */
export const badlyEncodedPath = fc.tuple(
  fc.constantFrom('/smsapi/tasks/', '/smsapi/create-task', '/smsapi/pending-tasks', '/smsapi/', '/smsapi/inbound/'),
  fc.constantFrom('%', '%ZZ', '%C0%AF', '%ED%A0%80', '%FF', '%E2%82', '%%', '%u0041', '%0', '%F4%90%80%80'),
  fc.constantFrom('', '1', 'x'),
).map(([base, bad, tail]) => `${base}${bad}${tail}`);
