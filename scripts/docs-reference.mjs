// `npm run docs`: writes the reference pages of docs/reference/ from the code, so they cannot drift
// from it: every environment variable the services and tools read (their own configuration readers,
// run on a recording reader), the admin command line's commands and flags, the contract's error
// codes and the API's operations. `--check` writes nothing and exits 1 naming each page that differs
// from what the code says. Both read the built libraries and apps (their dist/), so build first
// (`nx run-many -t build`); only the worker's configuration is bundled here from its source, as the
// worker's build is a single file.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from './lib/workspace.mjs';

const OUT = 'docs/reference';
const GENERATED = (source) => `> Generated from the code by \`npm run docs\`; do not edit this page by hand. Source: ${source}.`;
/** Where a gateway started by `npm start` serves the browsable reference; the API page links its operations there. */
const LOCAL_DOCS = 'http://localhost:3000/docs';

/**
 * Each program that validates a configuration at start: the app, the function its start-up passes
 * to `loadConfigOrExit`, and where that function is built (`module`) or its source (`source`, the
 * worker). `env` gives required values a placeholder. Each `scenario` reads once more with some
 * values set, for reads that depend on others (`when` names it in the page where a default differs;
 * a default built from a value in `shown` shows that value's name). Every scenario must be a valid
 * configuration (the reader's `done()` passes), and together they must reach every read: a probe
 * setting one value at a time fails the run when it finds a read they missed.
 */
const READERS = [
  { app: 'api-gateway', read: 'readGatewayConfig', module: 'apps/api-gateway/dist/config/gateway-config.js' },
  { app: 'billing', read: 'readBillingConfig', module: 'apps/billing/dist/config/billing-config.js' },
  { app: 'dispatch', read: 'readDispatchConfig', module: 'apps/dispatch/dist/config/dispatch-config.js' },
  { app: 'inbox', read: 'readInboxConfig', module: 'apps/inbox/dist/config/inbox-config.js' },
  { app: 'smpp', read: 'readSmppConfig', module: 'apps/smpp/dist/config/smpp-config.js' },
  { app: 'dashboard', read: 'readDashboardConfig', module: 'apps/dashboard/dist/config/dashboard-config.js' },
  { app: 'admin', read: 'readCommonConfig', module: 'libs/platform/dist/index.js' },
  {
    app: 'gateway-sim',
    read: 'readGatewaySimConfig',
    module: 'apps/gateway-sim/dist/config/gateway-sim-config.js',
    scenarios: [{ when: '`GATEWAY_SIM_MODE=smsgate`', env: { GATEWAY_SIM_MODE: 'smsgate', GATEWAY_SIM_SMSGATE_LIMIT_EXCEEDED_AFTER: '100' } }],
  },
  {
    app: 'worker',
    read: 'readWorkerConfig',
    source: 'apps/worker/src/config/worker-config.ts',
    env: { WORKER_TOKEN: 'smsq_wkr_placeholder' },
    scenarios: [
      { when: '`WORKER_DRIVER=smsgate`', env: { WORKER_DRIVER: 'smsgate', SMSGATE_USER: 'placeholder-user', SMSGATE_PASSWORD: 'placeholder-password' } },
      { when: '`WORKER_DRIVER=termux`', env: { WORKER_DRIVER: 'termux' } },
      { when: '`SMSGATE_WEBHOOK_PORT` set', env: { SMSGATE_WEBHOOK_PORT: '47999', WORKER_SIM: '2', WORKER_CLAIM_LIMIT: '10' }, shown: ['SMSGATE_WEBHOOK_PORT'] },
    ],
  },
];
/** Every reader's scenarios before its own: as it is, in production, and with values read in two steps set. */
const SCENARIOS = [
  { when: '', env: {} },
  { when: '`NODE_ENV=production`', nodeEnv: 'production', env: { DASHBOARD_SECRET: 'a-placeholder-secret-of-32-characters-or-more' } },
  { when: '`SMSQ_TASK_RETENTION_DAYS` set', env: { SMSQ_TASK_RETENTION_DAYS: '30' } },
];
/** The programs that run against the shared infrastructure; the worker and `npm start` are the others. */
const SERVICES = ['api-gateway', 'billing', 'dispatch', 'inbox', 'smpp', 'dashboard', 'gateway-sim', 'admin'];

/**
 * Variables read outside the configuration readers (`process.env` itself, or before the reader),
 * so no recording sees them; the page lists them from here, and the check that each is still read
 * is that its name is still in each file named.
 */
const READ_ELSEWHERE = [
  { name: 'NODE_ENV', readers: [...SERVICES, 'worker'], files: ['libs/platform/src/config/common-config.ts', 'apps/dashboard/src/config/dashboard-config.ts', 'apps/worker/src/config/worker-config.ts'], fallback: 'unset', values: '`production` or anything else' },
  { name: 'WORKER_PASSPHRASE', readers: ['worker'], files: ['apps/worker/src/encryption/worker-passphrase.ts'], fallback: 'unset', values: 'text, taken as given' },
  { name: 'WORKER_PASSPHRASE_FILE', readers: ['worker'], files: ['apps/worker/src/encryption/worker-passphrase.ts'], fallback: 'unset', values: 'a file' },
  { name: 'SMSQ_DEMO', readers: ['npm start'], files: ['scripts/start.mjs'], fallback: '`true`', values: '`true` or `false`' },
  { name: 'SMSQ_PROCESSES', readers: ['npm start'], files: ['scripts/start.mjs'], fallback: '`one`', values: '`one`, `many`' },
];

const SECTIONS = [
  { title: 'Every service', intro: 'Read by every service and by the admin command line (`npm run admin`), from `readCommonConfig`.', show: true },
  { title: 'Several services', intro: 'Each read by the services named.', show: true },
  { title: 'The API gateway (`api-gateway`)', reader: 'api-gateway' },
  { title: 'Billing (`billing`)', reader: 'billing' },
  { title: 'Dispatch (`dispatch`)', reader: 'dispatch' },
  { title: 'The inbox (`inbox`)', reader: 'inbox' },
  { title: 'SMPP (`smpp`)', reader: 'smpp' },
  { title: 'The dashboard (`dashboard`)', reader: 'dashboard' },
  { title: 'The worker (`smsq-worker.mjs`)', reader: 'worker', intro: "The delivery worker, on a server or on the phone; it reads no other service's settings." },
  { title: '`npm start`', reader: 'npm start' },
  { title: 'The gateway simulator (`gateway-sim`)', reader: 'gateway-sim', intro: 'A stand-in for a phone or an HTTP gateway, for tests and the demo of `npm start`.' },
];

const check = process.argv.includes('--check');
const unknownArgs = process.argv.slice(2).filter((arg) => arg !== '--check');
if (unknownArgs.length > 0) fail(`usage: node scripts/docs-reference.mjs [--check]; got ${unknownArgs.join(' ')}`);

const pages = {
  'configuration.md': await configurationPage(),
  'admin.md': await adminPage(),
  'errors.md': await errorsPage(),
  'api.md': await apiPage(),
};
if (check) checkPages(pages);
else writePages(pages);

// ---------------------------------------------------------------------------------------------
// Configuration

async function configurationPage() {
  const { RecordingEnvReader } = await built('libs/platform/dist/config/recording-env-reader.js');
  const { SETTING_MEANINGS } = await built('libs/platform/dist/config/setting-meanings.js');
  requireKnownReaders();
  /** name → app → [{ when, shown, setting }], one entry per scenario that read it */
  const recorded = new Map();
  for (const reader of READERS) {
    const read = await readerFunction(reader);
    const settings = [];
    for (const scenario of [...SCENARIOS, ...(reader.scenarios ?? [])]) {
      const env = { ...reader.env, ...scenario.env };
      for (const setting of recordScenario(RecordingEnvReader, read, env, scenario, reader.app)) {
        settings.push(setting);
        const byApp = recorded.get(setting.name) ?? new Map();
        byApp.set(reader.app, [...(byApp.get(reader.app) ?? []), { when: scenario.when, shown: shownValues(env, scenario.shown), setting }]);
        recorded.set(setting.name, byApp);
      }
    }
    requireEveryReadReached(RecordingEnvReader, read, reader, settings);
  }
  for (const entry of READ_ELSEWHERE) {
    const stale = entry.files.filter((file) => !readFileSync(join(root, file), 'utf8').includes(entry.name));
    if (stale.length > 0) fail(`${entry.name} is listed as read in ${stale.join(', ')}, which no longer mention it: update READ_ELSEWHERE in scripts/docs-reference.mjs`);
    if (recorded.has(entry.name)) fail(`${entry.name} is read through the configuration reader now: remove it from READ_ELSEWHERE in scripts/docs-reference.mjs`);
  }
  const names = [...recorded.keys(), ...READ_ELSEWHERE.map((entry) => entry.name)];
  const unexplained = names.filter((name) => !Object.hasOwn(SETTING_MEANINGS, name));
  const unread = Object.keys(SETTING_MEANINGS).filter((name) => !names.includes(name));
  if (unexplained.length > 0 || unread.length > 0) {
    fail(
      [
        'libs/platform/src/config/setting-meanings.ts and the code disagree:',
        ...unexplained.map((name) => `  ${name} is read (by ${readersOf(recorded, name).join(', ')}) but has no meaning`),
        ...unread.map((name) => `  ${name} has a meaning but nothing reads it`),
      ].join('\n'),
    );
  }

  const rows = [
    ...[...recorded].map(([name, byApp]) => settingRow(name, byApp, SETTING_MEANINGS[name])),
    ...READ_ELSEWHERE.map((entry) => ({ name: entry.name, readers: entry.readers, fallback: entry.fallback, values: entry.values, meaning: SETTING_MEANINGS[entry.name] })),
  ];
  const lines = [
    GENERATED('each service\'s `read…Config` (apps/*/src/config/), `readCommonConfig` (libs/platform/src/config/), and the meanings in libs/platform/src/config/setting-meanings.ts'),
    '',
    '# Configuration',
    '',
    'Every setting comes from the environment and is checked when the program starts: a bad value stops it with a message',
    'naming the variable. An empty value counts as unset. Booleans also take `1`/`0` and `yes`/`no`; listed words are',
    'matched without regard to case. Durations are in the unit the name ends in (`_S` seconds, `_MS` milliseconds).',
    '',
  ];
  for (const section of SECTIONS) {
    const chosen = rows.filter((row) => sectionOf(row) === section).sort((a, b) => (a.name < b.name ? -1 : 1));
    if (chosen.length === 0) continue;
    lines.push(`## ${section.title}`, '');
    if (section.intro) lines.push(section.intro, '');
    const header = section.show ? ['variable', 'default', 'values', 'read by', 'meaning'] : ['variable', 'default', 'values', 'meaning'];
    lines.push(tableRow(header), tableRow(header.map(() => '---')));
    for (const row of chosen) {
      const cells = [`\`${row.name}\``, row.fallback, row.values, ...(section.show ? [readersText(row.readers)] : []), linkDocs(row.meaning)];
      lines.push(tableRow(cells));
    }
    lines.push('');
  }
  return lines.join('\n');
}

/** Every app's start-up that validates a configuration must be in READERS, and every entry of READERS must still be one. */
function requireKnownReaders() {
  const found = [];
  for (const app of readdirSync(join(root, 'apps'))) {
    const src = join(root, 'apps', app, 'src');
    if (!existsSync(src)) continue;
    for (const file of sourceFiles(src)) {
      for (const match of readFileSync(file, 'utf8').matchAll(/loadConfigOrExit\(\s*(?:\(\w+\)\s*=>\s*)?(\w+)/g)) found.push({ app, read: match[1], file: relative(root, file) });
    }
  }
  const unknown = found.filter((use) => !READERS.some((reader) => reader.app === use.app && reader.read === use.read));
  const gone = READERS.filter((reader) => !found.some((use) => use.app === reader.app && use.read === reader.read));
  if (unknown.length > 0 || gone.length > 0) {
    fail(
      [
        'READERS in scripts/docs-reference.mjs no longer matches what the apps validate at start:',
        ...unknown.map((use) => `  ${use.file} reads its configuration with ${use.read}, which READERS does not list`),
        ...gone.map((reader) => `  READERS lists ${reader.read} for ${reader.app}, which no longer starts with it`),
      ].join('\n'),
    );
  }
}

function sourceFiles(folder) {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.ts$/.test(entry.name) && !/\.spec\.ts$/.test(entry.name))
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name))
    .filter((file) => !/[/\\](testing|generated)[/\\]/.test(file));
}

async function readerFunction(reader) {
  const module = reader.module ? await built(reader.module) : await bundled(reader.source);
  const read = module[reader.read];
  if (typeof read !== 'function') fail(`${reader.module ?? reader.source} has no function ${reader.read}`);
  return read;
}

/** A TypeScript module and what it imports, bundled as the worker's build bundles them, then imported. */
async function bundled(source) {
  const { rolldown } = await import('rolldown');
  const bundle = await rolldown({ input: join(root, source), platform: 'node', logLevel: 'warn', resolve: { conditionNames: ['@smsq/source', 'node', 'import', 'default'] } });
  const { output } = await bundle.generate({ format: 'esm', codeSplitting: false });
  await bundle.close();
  const folder = mkdtempSync(join(tmpdir(), 'smsq-docs-'));
  try {
    const file = join(folder, 'module.mjs');
    writeFileSync(file, output[0].code);
    return await import(pathToFileURL(file).href);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The settings one reader reads in one scenario, `NODE_ENV` set as the scenario says (readers look at `process.env` for it). */
function recordScenario(RecordingEnvReader, read, env, scenario, app) {
  const before = process.env.NODE_ENV;
  if (scenario.nodeEnv) process.env.NODE_ENV = scenario.nodeEnv;
  else delete process.env.NODE_ENV;
  try {
    const reader = new RecordingEnvReader(env);
    read(reader);
    reader.done();
    return reader.settings();
  } catch (error) {
    fail(`${app}'s configuration${scenario.when ? ` with ${scenario.when}` : ''} does not read (give READERS in scripts/docs-reference.mjs a placeholder for it):\n${error.message}`);
  } finally {
    if (before === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = before;
  }
}

function shownValues(env, names = []) {
  return Object.fromEntries(names.map((name) => [name, env[name]]));
}

/**
 * Reads once more for each value a setting may take that could lead to other reads (each listed
 * word, true and false, an optional one set), and once with every optional one set, and fails when
 * that reaches a variable, or a typed read of one, that the scenarios did not: the page would
 * miss it. Only what is read counts here, not whether the values make a valid configuration.
 */
function requireEveryReadReached(RecordingEnvReader, read, reader, settings) {
  const kinds = new Map();
  for (const setting of settings) if (!kinds.has(setting.name) || setting.kind !== 'string') kinds.set(setting.name, setting.kind);
  const optional = [...new Set(settings.filter((setting) => setting.optional).map((setting) => setting.name))];
  const probes = [
    ...settings.flatMap((setting) => (setting.kind === 'oneOf' ? setting.allowed : setting.kind === 'bool' ? ['true', 'false'] : setting.optional ? ['1'] : []).map((value) => ({ [setting.name]: value }))),
    Object.fromEntries(optional.map((name) => [name, '1'])),
  ];
  const missed = new Map();
  for (const probe of probes) {
    const recorder = new RecordingEnvReader({ ...reader.env, ...probe });
    try {
      read(recorder);
    } catch {
      // A value no scenario gives may stop a reader part way; what it read up to there still counts.
    }
    for (const setting of recorder.settings()) {
      const given = Object.entries(probe).map(([name, value]) => `${name}=${value}`).join(' ');
      if (missed.has(setting.name)) continue;
      if (!kinds.has(setting.name)) missed.set(setting.name, `${setting.name} (read with ${given})`);
      else if (setting.kind !== 'string' && kinds.get(setting.name) === 'string') missed.set(setting.name, `${setting.name} (read as ${setting.kind} with ${given})`);
    }
  }
  if (missed.size > 0) {
    fail(`${reader.app}'s configuration reads what no scenario of READERS in scripts/docs-reference.mjs reaches; give one the values that lead there:\n  ${[...missed.values()].join('\n  ')}`);
  }
}

function readersOf(recorded, name) {
  return [...(recorded.get(name)?.keys() ?? [])];
}

/** One variable's row: its default and values per reader (scenarios that differ named), merged where readers agree. */
function settingRow(name, byApp, meaning) {
  const perApp = [...byApp].map(([app, reads]) => ({ app, fallback: fallbackText(name, reads), values: valuesText(name, reads) }));
  return { name, readers: perApp.map((entry) => entry.app), fallback: merged(perApp, 'fallback'), values: merged(perApp, 'values'), meaning };
}

function merged(perApp, field) {
  const groups = new Map();
  for (const entry of perApp) groups.set(entry[field], [...(groups.get(entry[field]) ?? []), entry.app]);
  if (groups.size === 1) return [...groups.keys()][0];
  return [...groups].map(([text, apps]) => `${apps.join(', ')}: ${text}`).join('; ');
}

function fallbackText(name, reads) {
  const texts = new Map();
  for (const { when, shown, setting } of reads) {
    const text = setting.required ? 'required' : setting.optional || setting.fallback === undefined ? 'unset' : valueText(name, placeholdersNamed(setting.fallback, shown));
    texts.set(text, [...(texts.get(text) ?? []), when]);
  }
  const [first, ...others] = [...texts];
  const shown = others.map(([text, whens]) => `${text} with ${whens.filter(Boolean).join(' or ')}`);
  return [first[0], ...shown].join('; ');
}

/** A default built from a value a scenario gave (`http://127.0.0.1:$SMSGATE_WEBHOOK_PORT`), or from this machine's home. */
function placeholdersNamed(value, shown) {
  if (typeof value !== 'string') return value;
  let text = value.startsWith(homedir()) ? `~${value.slice(homedir().length)}` : value;
  for (const [name, given] of Object.entries(shown)) text = text.replaceAll(given, `$${name}`);
  return text;
}

function valuesText(name, reads) {
  const setting = (reads.find(({ setting }) => setting.kind !== 'string') ?? reads[0]).setting;
  switch (setting.kind) {
    case 'int':
      return `integer${rangeText(name, setting)}`;
    case 'port':
      return 'TCP port';
    case 'bool':
      return '`true` or `false`';
    case 'oneOf':
      return setting.allowed.map((value) => `\`${value}\``).join(', ');
    case 'url':
      return `${setting.protocols.map((protocol) => `\`${protocol}:\``).join(' or ')} URL`;
    default:
      return 'text';
  }
}

function rangeText(name, { min, max }) {
  const bounds = [min, max].filter((bound) => bound !== undefined);
  const human = bounds.some((bound) => seconds(name, bound) >= 60) ? ` (${bounds.map((bound) => duration(name, bound)).join(' – ')})` : '';
  if (min !== undefined && max !== undefined) return ` ${min}–${max}${human}`;
  if (min !== undefined) return ` ≥ ${min}${human}`;
  if (max !== undefined) return ` ≤ ${max}${human}`;
  return '';
}

function valueText(name, value) {
  const human = typeof value === 'number' && seconds(name, value) >= 60 ? ` (${duration(name, value)})` : '';
  return `\`${value}\`${human}`;
}

/** A value of an `_S` or `_MS` variable in seconds; undefined for any other. */
function seconds(name, value) {
  return name.endsWith('_MS') ? value / 1000 : name.endsWith('_S') ? value : undefined;
}

/** 86400 of an `_S` variable reads "1 day": the largest unit it is a whole number of. */
function duration(name, value) {
  const inSeconds = seconds(name, value);
  if (inSeconds === 0) return '0';
  if (!Number.isInteger(inSeconds)) return `${value} ms`;
  for (const [unit, size] of [['day', 86_400], ['h', 3_600], ['min', 60]]) {
    if (inSeconds % size === 0) return `${inSeconds / size} ${unit === 'day' && inSeconds !== size ? 'days' : unit}`;
  }
  return `${inSeconds} s`;
}

function sectionOf(row) {
  if (SERVICES.every((app) => row.readers.includes(app))) return SECTIONS[0];
  if (row.readers.length > 1) return SECTIONS[1];
  return SECTIONS.find((section) => section.reader === row.readers[0]) ?? fail(`no section of the page for ${row.name}, read by ${row.readers[0]}`);
}

function readersText(readers) {
  const services = SERVICES.every((app) => readers.includes(app));
  const others = readers.filter((reader) => !services || !SERVICES.includes(reader));
  return [...(services ? ['every service'] : []), ...others].join(', ');
}

// ---------------------------------------------------------------------------------------------
// The admin command line

async function adminPage() {
  const { COMMANDS, commandUsage, flagUsage } = await built('libs/admin-commands/dist/index.js');
  const lines = [
    GENERATED('`COMMANDS` in libs/admin-commands/src/commands.ts'),
    '',
    '# The admin command line',
    '',
    '`npm run --silent admin -- <noun> <verb> [--flag value]…` runs one command and prints one JSON object, in the API\'s',
    'field names; an error prints `{"error", "detail"}` and exits 1. The services must be running, and the command line',
    'reads the settings of [every service](configuration.md#every-service) to reach them. A flag in [brackets] may be left',
    'out. `npm run admin -- help` lists the commands in the terminal, `npm run admin -- help <noun> [<verb>]` explains',
    'their flags.',
    '',
  ];
  let noun;
  for (const [name, command] of Object.entries(COMMANDS)) {
    const [first] = name.split(' ');
    if (first !== noun) lines.push(`## ${first}`, '');
    noun = first;
    lines.push(`### \`${name}\``, '', command.summary, '', '```sh', `npm run --silent admin -- ${commandUsage(name, command)}`, '```', '');
    if (command.flags.length === 0) continue;
    lines.push(tableRow(['flag', '', 'meaning']), tableRow(['---', '---', '---']));
    for (const flag of command.flags) lines.push(tableRow([`\`${flagUsage(flag).replace(/^\[|\]$/g, '')}\``, flag.required ? 'required' : 'optional', flag.meaning]));
    lines.push('');
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------
// Errors

async function errorsPage() {
  const { ERROR_STATUS, ERROR_MEANINGS } = await built('libs/contracts/dist/errors.js');
  const lines = [
    GENERATED('`ERROR_STATUS` and `ERROR_MEANINGS` in libs/contracts/src/errors.ts'),
    '',
    '# Errors',
    '',
    'Every error of the API, the services and the admin command line is `{"error": "<code>", "detail": "<text>"}`: the',
    'code says what went wrong and fixes the HTTP status, the detail says it for a person and may change. Which',
    'operation answers which codes: the [API reference](api.md).',
    '',
    tableRow(['code', 'HTTP', 'meaning']),
    tableRow(['---', '---', '---']),
    ...Object.entries(ERROR_STATUS).map(([code, status]) => tableRow([`\`${code}\``, String(status), ERROR_MEANINGS[code] ?? fail(`libs/contracts/src/errors.ts: no meaning for ${code}`)])),
    '',
  ];
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------
// The API

async function apiPage() {
  const { openApiDocument, OPENAPI_DOCUMENT_PATH } = await built('libs/contracts/dist/openapi/index.js');
  const document = openApiDocument();
  const operations = Object.entries(document.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ path, method: method.toUpperCase(), operation })));
  const lines = [
    GENERATED('the OpenAPI document built in libs/contracts/src/openapi/'),
    '',
    '# The API',
    '',
    `Every operation of the public API, by tag. The full request and answer schemas, examples and error codes are in the`,
    `OpenAPI document the gateway serves at \`${OPENAPI_DOCUMENT_PATH}\`, browsable at \`/docs\`; each operation below links`,
    `to it on a gateway started by \`npm start\` (${LOCAL_DOCS}). Error bodies and codes: [errors](errors.md).`,
    '',
    'Auth: `API key` is a client\'s key in `X-API-Key` (or `?api_key=`); `worker token` is a phone\'s or worker\'s token in',
    '`X-Worker-Token`.',
    '',
  ];
  for (const tag of document.tags) {
    const tagged = operations.filter(({ operation }) => operation.tags?.[0] === tag.name);
    if (tagged.length === 0) continue;
    lines.push(`## ${tag.name}`, '', tag.description, '', tableRow(['operation', 'auth', 'what it does']), tableRow(['---', '---', '---']));
    for (const { path, method, operation } of tagged) {
      const link = `${LOCAL_DOCS}#/${encodeURIComponent(tag.name)}/${operation.operationId}`;
      const summary = [`${operation.summary}.`, firstSentence(operation.description)].filter(Boolean).join(' ');
      lines.push(tableRow([`[\`${method} ${path}\`](${link})`, authText(operation.security), summary]));
    }
    lines.push('');
  }
  const untagged = operations.filter(({ operation }) => !document.tags.some((tag) => tag.name === operation.tags?.[0]));
  if (untagged.length > 0) fail(`operations with no tag of the document: ${untagged.map(({ method, path }) => `${method} ${path}`).join(', ')}`);
  lines.push('## Webhook events', '', 'What smsq POSTs to a client\'s webhook endpoints, signed (`Smsq-Signature`), at least once.', '', tableRow(['event', 'when']), tableRow(['---', '---']));
  for (const [event, { post }] of Object.entries(document.webhooks)) lines.push(tableRow([`\`${event}\``, `${post.summary}.`]));
  lines.push('');
  return lines.join('\n');
}

function authText(security) {
  const schemes = new Set((security ?? []).flatMap((requirement) => Object.keys(requirement)));
  if (schemes.size === 0) return 'none';
  const names = { ApiKey: 'API key', ApiKeyQuery: 'API key', WorkerToken: 'worker token' };
  return [...new Set([...schemes].map((scheme) => names[scheme] ?? scheme))].join(' or ');
}

/** The first sentence of a description: up to a full stop followed by a new sentence. */
function firstSentence(text) {
  if (!text) return '';
  const flat = text.replace(/\s+/g, ' ').trim();
  const end = flat.search(/[.!?](?=\s+[A-Z`"(*])/);
  const sentence = end === -1 ? flat : flat.slice(0, end + 1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

// ---------------------------------------------------------------------------------------------
// Shared

async function built(file) {
  const path = join(root, file);
  if (!existsSync(path)) fail(`${file} is not built: run \`node_modules/.bin/nx run-many -t build\` first`);
  return import(pathToFileURL(path).href);
}

function tableRow(cells) {
  return `| ${cells.map((cell) => String(cell).replaceAll('|', '\\|').replace(/\s*\n\s*/g, ' ')).join(' | ')} |`;
}

/** `docs/decisions/0011-quorum-queues.md` in a meaning becomes a link from this folder. */
function linkDocs(text) {
  return text.replace(/\bdocs\/([\w./-]+\.md)(#[\w-]+)?/g, (whole, path, anchor = '') => `[${whole}](${relative(OUT, `docs/${path}`)}${anchor})`);
}

function writePages(generated) {
  mkdirSync(join(root, OUT), { recursive: true });
  for (const [name, text] of Object.entries(generated)) {
    const file = join(root, OUT, name);
    const before = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
    if (before === text) {
      process.stdout.write(`${OUT}/${name}: up to date\n`);
      continue;
    }
    writeFileSync(file, text);
    process.stdout.write(`${OUT}/${name}: written\n`);
  }
}

function checkPages(generated) {
  const stale = [];
  for (const [name, text] of Object.entries(generated)) {
    const file = join(root, OUT, name);
    const committed = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
    if (committed === text) continue;
    stale.push(name);
    process.stderr.write(`${OUT}/${name} is ${committed === undefined ? 'missing' : 'stale: it differs from what the code says'}; run npm run docs\n`);
    if (committed !== undefined) process.stderr.write(diffHint(committed, text));
  }
  if (stale.length === 0) return;
  process.stderr.write(`${stale.length} reference page${stale.length > 1 ? 's are' : ' is'} out of date: run npm run docs, and commit the pages it writes (never edit them by hand).\n`);
  process.exit(1);
}

/** Where the committed page and the generated one first part, and how many lines differ around there. */
function diffHint(committed, generated) {
  const [a, b] = [committed.split('\n'), generated.split('\n')];
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA -= 1;
    endB -= 1;
  }
  const clip = (line) => (line.length > 150 ? `${line.slice(0, 150)}…` : line);
  const shown = (lines, sign) => lines.slice(0, 3).map((line) => `    ${sign} ${clip(line)}\n`).join('') + (lines.length > 3 ? `    ${sign} … (${lines.length - 3} more)\n` : '');
  return `  from line ${start + 1}: the page has ${endA - start} line(s) where the code gives ${endB - start}:\n${shown(a.slice(start, endA), '-')}${shown(b.slice(start, endB), '+')}`;
}

function fail(message) {
  process.stderr.write(`docs-reference: ${message}\n`);
  process.exit(1);
}
