import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  anyJsonText,
  badlyEncodedPath,
  BODY_LIMIT,
  bodyOfSize,
  contentTypes,
  createTaskBody,
  fillerUnit,
  headerValue,
  goodMessage,
  goodRecipient,
  inboundBody,
  malformedContentTypes,
  nastyString,
  nonJsonText,
  oddIds,
  pathSegment,
  phoneHealthBody,
  registerPhoneBody,
  sizeNearLimit,
  taskStatusBody,
} from './support/fuzz-arbitraries.js';
import { contractViolations, describe as describeRequest, parsed, send, type Endpoint, type FuzzAnswer, type FuzzRequest } from './support/fuzz-http.js';
import { Stack } from './support/stack.js';

/**
 * Property-based fuzzing of every public endpoint of one Profile A stack (DESIGN.md §3).
 * The seed is fixed so a failure replays: FUZZ_SEED=<seed> to try another one, and
 * FUZZ_SURVEY=1 to log every violation instead of stopping (and shrinking) at the first.
 */
const SEED = Number(process.env['FUZZ_SEED'] ?? 424242);
const SURVEY = process.env['FUZZ_SURVEY'] === '1';
const RUNS = {
  createTask: 600,
  getTask: 250,
  registerPhone: 250,
  pendingTasks: 200,
  taskStatus: 300,
  inbound: 300,
  phoneHealth: 200,
  routing: 200,
  contentType: 150,
  badUrl: 100,
};

function params(numRuns: number): fc.Parameters<[unknown]> {
  // Shrinking replays real requests: bounded in time so a failure still ends the file quickly.
  return { seed: SEED, numRuns, interruptAfterTimeLimit: 45_000, markInterruptAsFailure: false };
}

/** What the fuzzer knows for certain about a request, from which the stricter expectations follow. */
interface Meta {
  endpoint: Endpoint;
  /** true: the credential authenticates; false: it cannot (401 by contract); undefined: ambiguous (duplicated, header and query, …). */
  authValid: boolean | undefined;
  /** Statuses the contract requires beyond property 1, if any. */
  expect?: (answer: FuzzAnswer) => string | undefined;
}

interface Case {
  request: FuzzRequest;
  meta: Meta;
}

interface Credentials {
  good: string;
  revoked: string;
  /** A credential of the other kind (a worker token on a client path, an API key on a worker path). */
  wrongKind: string;
}

const surveyed: string[] = [];

/** Counterexamples print as the request itself, ready to replay. */
function described(testCase: Case): Case {
  return Object.assign(testCase, { [fc.toStringMethod]: () => describeRequest(testCase.request) });
}

describe('fuzzing the public API (Profile A)', () => {
  let stack: Stack;
  let payer: { clientId: number; apiKey: string; phoneId?: number };
  let pairer: { clientId: number; apiKey: string };
  let workerClient: { clientId: number; apiKey: string };
  let workerToken: string;
  let revokedKey: string;
  let revokedToken: string;
  let otherTaskIds: number[];
  const claimedIds: number[] = [];
  let startingBalance: number;
  /** Distinct tasks the payer's 201 answers named, and how many 201 answers there were. */
  const payerTaskIds = new Set<number>();
  let payer201s = 0;
  /** Idempotency-Key → the first answer it got (raw body, task id), for replay checks. */
  const idempotent = new Map<string, { body: string | undefined; id: number }>();

  beforeAll(async () => {
    console.log(`fuzz seed ${SEED} (set FUZZ_SEED to change it)`);
    stack = await Stack.start({ profile: 'A', oneProcess: true });
    payer = await stack.newClient({ plan: 'enterprise' });
    pairer = await stack.newClient({ plan: 'enterprise', phone: false });
    workerClient = await stack.newClient({ plan: 'enterprise', phone: false });
    const workerPhone = await stack.adminOk('phone', 'register', '--client', String(workerClient.clientId), '--name', 'fuzz phone');
    workerToken = workerPhone.worker_token;
    const revoked = await stack.adminOk('key', 'create', '--client', String(payer.clientId));
    await stack.adminOk('key', 'revoke', '--key', String(revoked.key_id));
    revokedKey = revoked.api_key;
    const stale = await stack.adminOk('worker-token', 'create', '--phone', String(workerPhone.phone_id));
    await stack.adminOk('worker-token', 'revoke', '--token', String(stale.token_id));
    revokedToken = stale.worker_token;
    // Tasks of another client, for the worker side to claim and report, and for the payer to be refused.
    otherTaskIds = [];
    for (let i = 0; i < 12; i++) {
      const answer = await stack.createTask(workerClient.apiKey, { recipient: '+381641234567', message: `other ${i}` });
      expect(answer.status).toBe(201);
      otherTaskIds.push(answer.body.id);
    }
    for (let i = 0; i < 4; i++) {
      const claim = await stack.http('GET', '/smsapi/pending-tasks', { headers: { 'x-worker-token': workerToken } });
      expect(claim.status).toBe(200);
      claimedIds.push(claim.body.id);
    }
    startingBalance = await stack.credits(payer.clientId);
  }, 120_000);

  afterAll(async () => {
    if (surveyed.length > 0) console.log(`survey: ${surveyed.length} violations\n${surveyed.join('\n\n')}`);
    await stack?.stop();
  });

  /** Sends one case and checks property 1 and the case's own expectations; throws the reproduction on failure. */
  async function check({ request, meta }: Case): Promise<void> {
    let answer: FuzzAnswer;
    try {
      answer = await send(stack.baseUrl, request);
    } catch (error) {
      return fail(request, undefined, [(error as Error).message]);
    }
    const problems = contractViolations(meta.endpoint, answer);
    const size = request.body?.length ?? 0;
    if (size > BODY_LIMIT && meta.authValid === true && request.method === 'POST' && answer.status !== 413) problems.push(`a ${size}-byte body answered ${answer.status}, not 413`);
    if (size > BODY_LIMIT && meta.authValid === false && request.method === 'POST' && ![401, 413].includes(answer.status)) problems.push(`a ${size}-byte body without a valid credential answered ${answer.status}, not 401 or 413`);
    if (size <= BODY_LIMIT && answer.status === 413) problems.push(`a ${size}-byte body (within 64 KiB) answered 413`);
    if (size <= BODY_LIMIT && meta.authValid === false && answer.status !== 401) problems.push(`no valid credential, yet ${answer.status} rather than 401`);
    if (size <= BODY_LIMIT && meta.authValid === true && answer.status === 401) problems.push('a valid credential answered 401');
    const own = meta.expect?.(answer);
    if (own) problems.push(own);
    const body = parsed(answer);
    if (answer.status === 201 && body?.client_id === payer.clientId && typeof body.id === 'number') {
      payer201s++;
      payerTaskIds.add(body.id);
    }
    if (problems.length > 0) fail(request, answer, problems);
  }

  function fail(request: FuzzRequest, answer: FuzzAnswer | undefined, problems: string[]): void {
    const report = `${problems.join('\n')}\n--- request\n${describeRequest(request)}\n--- answer\n${answer ? `${answer.status} ${answer.text.slice(0, 500)}` : '(none)'}`;
    if (SURVEY) {
      surveyed.push(report);
      return;
    }
    throw new Error(report);
  }

  // ---- credentials ------------------------------------------------------------------------

  type Auth = { headers: [string, string][]; query: string[]; valid: boolean | undefined };

  function apiKeyAuth(credentials: Credentials): fc.Arbitrary<Auth> {
    const { good, revoked, wrongKind } = credentials;
    return fc.oneof(
      { weight: 8, arbitrary: fc.constant<Auth>({ headers: [['X-API-Key', good]], query: [], valid: true }) },
      fc.constant<Auth>({ headers: [], query: [`api_key=${encodeURIComponent(good)}`], valid: true }),
      fc.constant<Auth>({ headers: [], query: [`api_key=${pathSegment(good, false)}`], valid: true }),
      fc.constant<Auth>({ headers: [['x-api-key', `  ${good}\t`]], query: [], valid: true }),
      fc.constant<Auth>({ headers: [], query: [], valid: false }),
      headerValue(120).filter((value) => value.trim() !== good).map((value): Auth => ({ headers: [['X-API-Key', value]], query: [], valid: false })),
      nastyString.map((value): Auth => ({ headers: [], query: [`api_key=${pathSegment(value, false)}`], valid: false })),
      fc.constant<Auth>({ headers: [['X-API-Key', revoked]], query: [], valid: false }),
      fc.constant<Auth>({ headers: [['X-API-Key', good.toUpperCase()]], query: [], valid: false }),
      fc.constant<Auth>({ headers: [['X-API-Key', good.slice(0, -1)]], query: [], valid: false }),
      fc.constant<Auth>({ headers: [['X-API-Key', good], ['X-Worker-Token', wrongKind]], query: [], valid: false }),
      fc.constant<Auth>({ headers: [['X-Worker-Token', wrongKind]], query: [], valid: false }),
      fc.constant<Auth>({ headers: [['X-API-Key', good], ['X-API-Key', good]], query: [], valid: undefined }),
      fc.constant<Auth>({ headers: [['X-API-Key', good], ['X-API-Key', revoked]], query: [], valid: undefined }),
      fc.constant<Auth>({ headers: [], query: [`api_key=${good}`, `api_key=${good}`], valid: undefined }),
      fc.constant<Auth>({ headers: [['X-API-Key', revoked]], query: [`api_key=${good}`], valid: undefined }),
    );
  }

  function workerAuth(credentials: Credentials): fc.Arbitrary<Auth> {
    const { good, revoked, wrongKind } = credentials;
    return fc.oneof(
      { weight: 8, arbitrary: fc.constant<Auth>({ headers: [['X-Worker-Token', good]], query: [], valid: true }) },
      fc.constant<Auth>({ headers: [['x-worker-token', ` ${good} `]], query: [], valid: undefined }),
      fc.constant<Auth>({ headers: [], query: [], valid: false }),
      headerValue(120).filter((value) => value.trim() !== good).map((value): Auth => ({ headers: [['X-Worker-Token', value]], query: [], valid: false })),
      fc.constant<Auth>({ headers: [['X-Worker-Token', revoked]], query: [], valid: false }),
      fc.constant<Auth>({ headers: [['X-Worker-Token', good.slice(0, -1)]], query: [], valid: false }),
      fc.constant<Auth>({ headers: [['X-API-Key', wrongKind]], query: [], valid: false }),
      fc.constant<Auth>({ headers: [], query: [`api_key=${encodeURIComponent(wrongKind)}`], valid: false }),
      fc.constant<Auth>({ headers: [], query: [`worker_token=${encodeURIComponent(good)}`], valid: false }),
      fc.constant<Auth>({ headers: [['X-Worker-Token', good], ['X-Worker-Token', good]], query: [], valid: undefined }),
      fc.constant<Auth>({ headers: [['X-Worker-Token', good], ['X-API-Key', wrongKind]], query: [], valid: undefined }),
    );
  }

  const junkQuery = fc.array(
    fc.oneof(
      fc.tuple(nastyString, nastyString).map(([name, value]) => `${pathSegment(name, false)}=${pathSegment(value, false)}`),
      fc.constantFrom('x', '=', '&', '%00=%00', 'a=%ZZ', 'wait', '__proto__[x]=1', 'constructor=1', 'a[]=1&a[]=2'),
    ),
    { maxLength: 3 },
  );

  function pathWith(path: string, query: string[]): string {
    return query.length === 0 ? path : `${path}?${query.join('&')}`;
  }

  /** A body for a POST endpoint: shaped, any JSON, not JSON, none, or sized around the limit. */
  function postBody(shaped: fc.Arbitrary<string>, bigField: string): fc.Arbitrary<Buffer | undefined> {
    return fc.oneof(
      { weight: 6, arbitrary: shaped.map((text) => Buffer.from(text, 'utf8')) },
      { weight: 2, arbitrary: anyJsonText.map((text) => Buffer.from(text, 'utf8')) },
      { weight: 2, arbitrary: nonJsonText.map((text) => Buffer.from(text, 'utf8')) },
      fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
      fc.constant(undefined),
      { weight: 2, arbitrary: fc.tuple(sizeNearLimit, fillerUnit).map(([size, unit]) => Buffer.from(bodyOfSize(size, unit, (filler) => JSON.stringify({ [bigField]: filler, recipient: '+381641234567', message: 'm' })), 'utf8')) },
    );
  }

  function postCase(endpoint: Endpoint, path: string, auth: fc.Arbitrary<Auth>, body: fc.Arbitrary<Buffer | undefined>, extraHeaders: fc.Arbitrary<[string, string][]> = fc.constant([])): fc.Arbitrary<Case> {
    return fc.record({ auth, query: junkQuery, contentType: contentTypes, body, extra: extraHeaders, chunked: fc.boolean() }).map(({ auth, query, contentType, body, extra, chunked }) => ({
      request: {
        method: 'POST',
        path: pathWith(path, [...auth.query, ...query]),
        headers: [...auth.headers, ...contentType.map((type): [string, string] => ['Content-Type', type]), ...extra],
        body,
        chunked: body !== undefined && body.length > 0 && chunked,
      },
      meta: { endpoint, authValid: auth.valid },
    }));
  }

  // ---- property 1, endpoint by endpoint ----------------------------------------------------------

  it('POST /smsapi/create-task answers only contract statuses and error bodies, whatever it is sent', async () => {
    const credentials = { good: payer.apiKey, revoked: revokedKey, wrongKind: workerToken };
    const idempotencyKey = fc.oneof(
      { weight: 4, arbitrary: fc.constant(undefined) },
      fc.constantFrom('k1', 'k2', 'k3'),
      headerValue(300),
      fc.constantFrom('x'.repeat(255), 'y'.repeat(256), ' '.repeat(10) + 'z'.repeat(255), '\u00ff'.repeat(256)),
    );
    const arbitrary = fc
      .tuple(postCase('create-task', '/smsapi/create-task', apiKeyAuth(credentials), postBody(createTaskShapes(payer.phoneId!, otherTaskIds[0]!), 'message')), idempotencyKey)
      .map(([testCase, key]): Case => {
        if (key === undefined) return testCase;
        const request = { ...testCase.request, headers: [...testCase.request.headers, ['Idempotency-Key', key] as [string, string]] };
        const trimmed = key.replace(/^[\t ]+|[\t ]+$/g, '');
        const expectFor = (answer: FuzzAnswer): string | undefined => {
          const size = request.body?.length ?? 0;
          if (testCase.meta.authValid !== true || size > BODY_LIMIT) return undefined;
          if (trimmed.length > 255 && answer.status !== 400) return `an Idempotency-Key of ${trimmed.length} characters answered ${answer.status}, not 400`;
          const body = parsed(answer);
          const first = idempotent.get(trimmed);
          const raw = request.body?.toString('utf8');
          if (first && first.body === raw && answer.status !== 201) return `a repeat of an answered request with Idempotency-Key ${JSON.stringify(trimmed)} answered ${answer.status}, not the first 201`;
          if (first && first.body === raw && body?.id !== first.id) return `a repeat with Idempotency-Key ${JSON.stringify(trimmed)} created task ${body?.id}, not the first one's ${first.id}`;
          if (answer.status === 201 && !first && trimmed.length > 0) idempotent.set(trimmed, { body: raw, id: body.id });
          return undefined;
        };
        return { request, meta: { ...testCase.meta, expect: expectFor } };
      })
      .map((testCase): Case => {
        const previous = testCase.meta.expect;
        return {
          ...testCase,
          meta: {
            ...testCase.meta,
            expect: (answer) => {
              const problem = previous?.(answer);
              if (problem) return problem;
              if (answer.status !== 201) return undefined;
              const body = parsed(answer);
              const keys = Object.keys(body ?? {}).sort().join(',');
              if (keys !== 'charged,client_id,credits_remaining,id,ok,phone_id,scheduled_at,status') return `a 201 body has keys [${keys}]`;
              if (body.ok !== true || body.status !== 'pending' || body.charged !== true || body.phone_id !== payer.phoneId) return `a 201 body is not a pending task on the payer's phone: ${JSON.stringify(body)}`;
              if (!/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(body.scheduled_at)) return `scheduled_at ${JSON.stringify(body.scheduled_at)} is not YYYY-MM-DD HH:MM:SS`;
              return undefined;
            },
          },
        };
      });
    await fc.assert(fc.asyncProperty(arbitrary.map(described), check), params(RUNS.createTask));
  }, 120_000);

  it('GET /smsapi/tasks/{id} answers the client its own task and 404 for any other id, in any form', async () => {
    const credentials = { good: payer.apiKey, revoked: revokedKey, wrongKind: workerToken };
    const own = () => [...payerTaskIds];
    const id = fc.oneof(
      { weight: 2, arbitrary: fc.nat().map((n) => String(own()[n % Math.max(1, own().length)] ?? 1)) },
      fc.constantFrom(...otherTaskIds.map(String)),
      // No id at all is `GET /smsapi/tasks/`, the task list (client-tasks.e2e.spec.ts), not an unknown path.
      { weight: 4, arbitrary: oddIds.filter((odd) => odd !== '') },
    );
    const arbitrary = fc.record({ auth: apiKeyAuth(credentials), id, query: junkQuery, trailingSlash: fc.boolean() }).map(({ auth, id, query, trailingSlash }): Case => ({
      request: { method: 'GET', path: pathWith(`/smsapi/tasks/${id}${trailingSlash ? '/' : ''}`, [...auth.query, ...query]), headers: auth.headers },
      meta: {
        endpoint: 'get-task',
        // An empty id, or one with a raw `/`, leaves a path that is no endpoint: 404 whatever the credential.
        authValid: id === '' || id.includes('/') ? undefined : auth.valid,
        expect: (answer) => {
          if (id === '' || id.includes('/')) return answer.status === 404 ? undefined : `the unknown path /smsapi/tasks/${id} answered ${answer.status}, not 404`;
          if (auth.valid !== true) return undefined;
          const ownTask = /^\d+$/.test(id) && payerTaskIds.has(Number(id));
          const looselyOwn = payerTaskIds.has(Number(decodeURIComponentSafe(id).trim()));
          if (ownTask && answer.status !== 200) return `the payer's own task ${id} answered ${answer.status}, not 200`;
          if (!ownTask && !looselyOwn && answer.status !== 404) return `id ${JSON.stringify(id)} (not the payer's) answered ${answer.status}, not 404`;
          if (answer.status === 200 && parsed(answer)?.client_id !== payer.clientId) return `answered another client's task: ${answer.text.slice(0, 200)}`;
          return undefined;
        },
      },
    }));
    await fc.assert(fc.asyncProperty(arbitrary.map(described), check), params(RUNS.getTask));
  }, 120_000);

  it('POST /smsapi/register-phone answers only contract statuses and error bodies', async () => {
    const credentials = { good: pairer.apiKey, revoked: revokedKey, wrongKind: workerToken };
    const arbitrary = postCase('register-phone', '/smsapi/register-phone', apiKeyAuth(credentials), postBody(registerPhoneBody, 'name')).map(
      (testCase): Case => ({
        ...testCase,
        meta: {
          ...testCase.meta,
          expect: (answer) => {
            if (answer.status !== 201) return undefined;
            const body = parsed(answer);
            if (body?.ok !== true || typeof body.phone_id !== 'number' || typeof body.worker_token !== 'string') return `a 201 body is not {ok, phone_id, worker_token}: ${answer.text.slice(0, 200)}`;
            return undefined;
          },
        },
      }),
    );
    await fc.assert(fc.asyncProperty(arbitrary.map(described), check), params(RUNS.registerPhone));
  }, 120_000);

  it('GET /smsapi/pending-tasks answers only contract statuses and error bodies, whatever wait= and token it gets', async () => {
    const credentials = { good: workerToken, revoked: revokedToken, wrongKind: payer.apiKey };
    const wait = fc.oneof(
      fc.constant<string[]>([]),
      fc.constantFrom(['wait=0'], ['wait='], ['wait=1'], ['wait=%30'], ['wait=-1'], ['wait=1.5'], ['wait=abc'], ['wait=1e3'], ['wait=%00'], ['wait=0x1'], ['wait=9999999'], ['wait=0&wait=1'], ['wait[]=1'], ['wait[a]=1'], ['wait=+0'], ['wait=%200'], ['WAIT=0'], ['wait']),
      nastyString.map((text) => [`wait=${pathSegment(text, false)}`]),
    );
    const arbitrary = fc.record({ auth: workerAuth(credentials), wait, query: junkQuery }).map(({ auth, wait, query }): Case => ({
      request: { method: 'GET', path: pathWith('/smsapi/pending-tasks', [...auth.query, ...wait, ...query]), headers: auth.headers },
      meta: {
        endpoint: 'pending-tasks',
        authValid: auth.valid,
        expect: (answer) => {
          const body = parsed(answer);
          if (answer.status === 200 && typeof body?.id === 'number') {
            claimedIds.push(body.id);
            if (body.client_id !== workerClient.clientId) return `claimed another client's task: ${answer.text.slice(0, 200)}`;
          }
          return undefined;
        },
      },
    }));
    await fc.assert(fc.asyncProperty(arbitrary.map(described), check), params(RUNS.pendingTasks));
  }, 120_000);

  it('POST /smsapi/task-status answers only contract statuses and error bodies, and 404 for a task it does not hold', async () => {
    const credentials = { good: workerToken, revoked: revokedToken, wrongKind: payer.apiKey };
    const ids = () => [...claimedIds, ...payerTaskIds, ...otherTaskIds];
    const arbitrary = postCase('task-status', '/smsapi/task-status', workerAuth(credentials), postBody(taskStatusBody(ids), 'error')).map(
      (testCase): Case => ({
        ...testCase,
        meta: {
          ...testCase.meta,
          expect: (answer) => {
            if (answer.status !== 200) return undefined;
            const sent = parsed({ ...answer, text: testCase.request.body?.toString('utf8') ?? '' });
            if (typeof sent?.id === 'number' && !claimedIds.includes(sent.id)) return `a report on task ${sent.id}, never claimed with this token, answered 200`;
            return undefined;
          },
        },
      }),
    );
    await fc.assert(fc.asyncProperty(arbitrary.map(described), check), params(RUNS.taskStatus));
  }, 120_000);

  it('POST /smsapi/inbound answers only contract statuses and error bodies', async () => {
    const credentials = { good: workerToken, revoked: revokedToken, wrongKind: payer.apiKey };
    const arbitrary = postCase('inbound', '/smsapi/inbound', workerAuth(credentials), postBody(inboundBody, 'message')).map(
      (testCase): Case => ({
        ...testCase,
        meta: {
          ...testCase.meta,
          expect: (answer) => {
            if (answer.status !== 201) return undefined;
            const body = parsed(answer);
            if (body?.ok !== true || !Number.isInteger(body.stored) || !Number.isInteger(body.duplicates)) return `a 201 body is not {ok, stored, duplicates}: ${answer.text.slice(0, 200)}`;
            return undefined;
          },
        },
      }),
    );
    await fc.assert(fc.asyncProperty(arbitrary.map(described), check), params(RUNS.inbound));
  }, 120_000);

  it('POST /smsapi/phone-health answers only contract statuses and error bodies', async () => {
    const credentials = { good: workerToken, revoked: revokedToken, wrongKind: payer.apiKey };
    const arbitrary = postCase('phone-health', '/smsapi/phone-health', workerAuth(credentials), postBody(phoneHealthBody, 'connection')).map(
      (testCase): Case => ({
        ...testCase,
        meta: {
          ...testCase.meta,
          expect: (answer) => {
            if (answer.status !== 200) return undefined;
            if (answer.text !== '{"ok":true}') return `a 200 body is not {ok: true}: ${answer.text.slice(0, 200)}`;
            return undefined;
          },
        },
      }),
    );
    await fc.assert(fc.asyncProperty(arbitrary.map(described), check), params(RUNS.phoneHealth));
  }, 120_000);

  it('wrong methods answer 405 and odd or unknown paths 404, always as contract error bodies', async () => {
    const known: [string, string][] = [
      ['/smsapi/create-task', 'POST'],
      ['/smsapi/create-tasks', 'POST'],
      ['/smsapi/register-phone', 'POST'],
      ['/smsapi/task-status', 'POST'],
      ['/smsapi/inbound', 'POST'],
      ['/smsapi/phone-health', 'POST'],
      ['/smsapi/pending-tasks', 'GET'],
      ['/smsapi/tasks/1', 'GET'],
      ['/smsapi/tasks/1/cancel', 'POST'],
      ['/smsapi/tasks', 'GET'],
      ['/smsapi/webhooks/1', 'DELETE'],
      ['/smsapi/webhooks/1/rotate-secret', 'POST'],
      ['/smsapi/webhooks/1/enable', 'POST'],
      ['/smsapi/openapi.json', 'GET'],
    ];
    const methods = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];
    const wrongMethod = fc.tuple(fc.constantFrom(...known), fc.constantFrom(...methods), fc.boolean()).filter(([[, allowed], method]) => method !== allowed).map(([[path], method, slash]) => ({ path: slash ? `${path}/` : path, method, expected: 405 as number | undefined }));
    const unknownPath = fc.oneof(
      fc.constantFrom('/smsapi', '/smsapi/', '/smsapi/create-task/extra', '/SMSAPI/create-task', '/smsapi/Create-Task', '/smsapi/create-task%00', '/smsapi/%00', '/smsapi/create-task/..', '/smsapi/tasks/1/2', '/smsapi/create_task', '/smsapi/create-task.json', '/smsapi/admin', '/smsapi/../smsapi/create-task-x'),
      nastyString.map((text) => `/smsapi/${pathSegment(text, true)}`),
    );
    const unknown = fc.tuple(unknownPath, fc.constantFrom(...methods)).map(([path, method]) => ({ path, method, expected: undefined as number | undefined }));
    const arbitrary = fc
      .record({ target: fc.oneof(wrongMethod, unknown), auth: fc.constantFrom<[string, string][]>([], [['X-API-Key', 'garbage']], [['X-Worker-Token', 'garbage']]), body: fc.option(anyJsonText, { nil: undefined }) })
      .map(({ target, auth, body }): Case => ({
        request: { method: target.method, path: target.path, headers: body === undefined ? auth : [...auth, ['Content-Type', 'application/json']], body: body === undefined ? undefined : Buffer.from(body, 'utf8') },
        meta: {
          endpoint: 'other',
          authValid: undefined,
          expect: (answer) => {
            if (target.expected !== undefined && answer.status !== target.expected) return `${target.method} ${target.path} answered ${answer.status}, not ${target.expected}`;
            if (target.expected === 405 && !answer.headers['allow']) return '405 without an Allow header';
            if (target.expected === undefined && ![404, 405, 401].includes(answer.status)) return `${target.method} ${target.path} answered ${answer.status}`;
            return undefined;
          },
        },
      }));
    await fc.assert(fc.asyncProperty(arbitrary.map(described), check), params(RUNS.routing));
  }, 120_000);

  it('a malformed Content-Type still gets contract answers in the contract order (401 before 400, 413 over 64 KiB)', async () => {
    const endpoints: [Endpoint, string, fc.Arbitrary<Auth>][] = [
      ['create-task', '/smsapi/create-task', apiKeyAuth({ good: payer.apiKey, revoked: revokedKey, wrongKind: workerToken })],
      ['register-phone', '/smsapi/register-phone', apiKeyAuth({ good: pairer.apiKey, revoked: revokedKey, wrongKind: workerToken })],
      ['task-status', '/smsapi/task-status', workerAuth({ good: workerToken, revoked: revokedToken, wrongKind: payer.apiKey })],
      ['inbound', '/smsapi/inbound', workerAuth({ good: workerToken, revoked: revokedToken, wrongKind: payer.apiKey })],
      ['phone-health', '/smsapi/phone-health', workerAuth({ good: workerToken, revoked: revokedToken, wrongKind: payer.apiKey })],
    ];
    const contentTypeCase = fc
      .tuple(fc.constantFrom(...endpoints.keys()), malformedContentTypes)
      .chain(([index, contentType]) => {
        const [endpoint, path, auth] = endpoints[index]!;
        return postCase(endpoint, path, auth, postBody(fc.constant('{"recipient":"+381641234567","message":"m","name":"n","id":1,"status":"sent","from":"+381641234567","charging":true}'), 'message')).map(
          (testCase): Case => ({ ...testCase, request: { ...testCase.request, headers: [...testCase.request.headers.filter(([name]) => name !== 'Content-Type'), ['Content-Type', contentType]] } }),
        );
      });
    await fc.assert(fc.asyncProperty(contentTypeCase.map(described), check), params(RUNS.contentType));
  }, 120_000);

  it('a path with broken percent-encoding gets a contract error body', async () => {
    const badPathCase = fc
      .record({ path: badlyEncodedPath, method: fc.constantFrom('GET', 'POST'), auth: fc.constantFrom<[string, string][]>([], [['X-API-Key', payer.apiKey]], [['X-Worker-Token', workerToken]]) })
      .map(({ path, method, auth }): Case => ({
        request: { method, path, headers: auth, body: method === 'POST' ? Buffer.from('{}') : undefined },
        meta: { endpoint: 'other', authValid: undefined },
      }));
    await fc.assert(fc.asyncProperty(badPathCase.map(described), check), params(RUNS.badUrl));
  }, 120_000);

  // ---- properties 2 and 3 ---------------------------------------------------------------------

  it('a rejected create-task never debits: the balance fell by exactly the tasks created', async () => {
    const balance = await stack.credits(payer.clientId);
    console.log(`create-task: ${payer201s} answers 201 naming ${payerTaskIds.size} distinct tasks; balance ${startingBalance} → ${balance}`);
    expect(balance).toBe(startingBalance - payerTaskIds.size);
  });

  it('the services are still up afterwards: /readyz answers 200 and a valid create-task 201', async () => {
    const ready = await fetch(`${stack.baseUrl}/readyz`);
    expect(ready.status).toBe(200);
    const before = await stack.credits(payer.clientId);
    const answer = await stack.createTask(payer.apiKey, { recipient: '+381641234567', message: 'still alive' });
    expect(answer.status).toBe(201);
    expect(answer.body.credits_remaining).toBe(before - 1);
    const errors = ['api-gateway', 'billing', 'dispatch', 'inbox'].flatMap((service) => stack.logsOf(service as 'api-gateway').filter((line) => /"level":\s*"?(error|fatal|50|60)/.test(line)).map((line) => `${service}: ${line.slice(0, 400)}`));
    if (errors.length > 0) console.log(`error-level log lines during the fuzzing (${errors.length}):\n${errors.slice(0, 20).join('\n')}`);
  });
});

/** Mostly bodies that pass every rule (so 201s and debits happen), the rest shaped but broken anywhere. */
function createTaskShapes(ownPhone: number, otherId: number): fc.Arbitrary<string> {
  const valid = fc
    .record({ recipient: goodRecipient, message: goodMessage.filter((text) => [...text].length <= 1600 && text.isWellFormed() && !text.includes('\u0000') && text.trim() !== ''), phone: fc.constantFrom(undefined, ownPhone, otherId, 0, -1, '1', 2 ** 31) })
    .map(({ recipient, message, phone }) => JSON.stringify(phone === undefined ? { recipient, message } : { recipient, message, phone_id: phone }));
  return fc.oneof({ weight: 2, arbitrary: valid }, { weight: 3, arbitrary: createTaskBody([ownPhone, otherId]) });
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
