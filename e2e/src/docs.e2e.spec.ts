import { eventually } from '@smsq/testing';
import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fencedBlocks } from './support/markdown.js';
import { ROOT, Stack } from './support/stack.js';
import { answerProblems, testedCommands } from './support/tested-docs.js';
import { clientWithPairedPhone } from './support/worker-api.js';

/** The address the docs' commands use, as `npm start` serves it; replaced by the stack's. */
const DOCUMENTED_BASE_URL = 'http://localhost:3000';
/** The pages whose `sh tested` commands are run: the README and the guide, each page with a client of its own. */
const PAGES = ['README.md', ...readdirSync(join(ROOT, 'docs', 'guide')).filter((name) => name.endsWith('.md')).sort().map((name) => `docs/guide/${name}`)];
const PAGES_WITH_COMMANDS = PAGES.filter((page) => readFileSync(join(ROOT, page), 'utf8').includes('sh tested'));
const WEBHOOKS_PAGE = 'docs/guide/webhooks.md';
const SMS = { recipient: '+381641234567', message: 'Your code is 482913' };

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** A program as a reader runs it: its exit code (-1 when it had to be stopped after 30 s) and what it printed. */
function run(file: string, args: string[], options: { cwd: string; env: Record<string, string | undefined> }): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(file, args, { ...options, timeout: 30_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

interface Delivery {
  body: Buffer;
  signature: string;
  event: { type: string; data: Record<string, any> };
}

describe('the docs, run against smsq', () => {
  let stack: Stack;
  let server: Server;
  let receiverUrl: string;
  const deliveries: Delivery[] = [];
  const folders: string[] = [];
  const folder = (name: string) => {
    const made = mkdtempSync(join(tmpdir(), `smsq-docs-${name}-`));
    folders.push(made);
    return made;
  };

  beforeAll(async () => {
    // The raw bytes and the header as they came: what a receiver checks the signature over.
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks);
        deliveries.push({ body, signature: String(request.headers['smsq-signature']), event: JSON.parse(body.toString('utf8')) });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/smsq-events`;
    stack = await Stack.start({ profile: 'A', oneProcess: true, env: { SMSQ_WEBHOOK_ALLOW_PRIVATE: 'true' } });
  });

  afterAll(async () => {
    await stack?.stop();
    await new Promise((resolve) => server?.close(resolve));
    for (const made of folders) rmSync(made, { recursive: true, force: true });
  });

  it.each(PAGES_WITH_COMMANDS)('%s: each `sh tested` command answers as the `json answer` after it shows', async (page) => {
    const { commands, problems } = testedCommands(readFileSync(join(ROOT, page), 'utf8'));
    // A reader follows a page from its top: its commands run in order, with one fresh client's key (Profile A, a phone of its own).
    const { apiKey } = await stack.newClient();
    const cwd = folder('commands');

    for (const command of commands) {
      const script = command.script.replaceAll(DOCUMENTED_BASE_URL, stack.baseUrl);
      const ran = await run('sh', ['-c', script], { cwd, env: { ...process.env, SMSQ_API_KEY: apiKey } });
      let answer: unknown;
      try {
        answer = JSON.parse(ran.stdout);
      } catch {
        problems.push(`${command.line}: printed no JSON (exit ${ran.code}): ${JSON.stringify(ran.stdout.slice(0, 300))}${ran.stderr ? `, stderr ${JSON.stringify(ran.stderr.slice(0, 300))}` : ''}`);
        continue;
      }
      const documented: unknown = JSON.parse(JSON.stringify(command.answer).replaceAll(DOCUMENTED_BASE_URL, stack.baseUrl));
      const wrong = answerProblems(documented, answer);
      if (wrong.length > 0) problems.push(`${command.line}: ${wrong.join('; ')}; it answered ${JSON.stringify(answer)}`);
    }

    expect(commands.length).toBeGreaterThan(0);
    expect(problems.map((problem) => `${page}:${problem}`)).toEqual([]);
  });

  it("the webhooks page's verify-webhook programs, in Node.js and Python, verify a real delivery and refuse a tampered, wrongly keyed or replayed one", async () => {
    const blocks = fencedBlocks(readFileSync(join(ROOT, WEBHOOKS_PAGE), 'utf8'));
    const programIn = (language: string) => {
      const found = blocks.filter((block) => block.info[0] === language && block.info.includes('verify-webhook'));
      expect(found.map((block) => `${WEBHOOKS_PAGE}:${block.line}`), `one \`${language} verify-webhook\` block`).toHaveLength(1);
      return found[0]!.text;
    };
    const programs = folder('verify');
    writeFileSync(join(programs, 'verify-webhook.mjs'), programIn('js'));
    writeFileSync(join(programs, 'verify_webhook.py'), programIn('python'));
    /** What each program made of a delivery: its exit code and what it printed. */
    const verdicts = async (body: Buffer, signature: string, secret: string) => {
      const bodyFile = join(folder('body'), 'body.json');
      writeFileSync(bodyFile, body);
      const env = { ...process.env, SMSQ_SIGNATURE: signature, SMSQ_WEBHOOK_SECRET: secret };
      const [node, python] = await Promise.all([
        run(process.execPath, [join(programs, 'verify-webhook.mjs'), bodyFile], { cwd: programs, env }),
        run('python3', [join(programs, 'verify_webhook.py'), bodyFile], { cwd: programs, env }),
      ]);
      return { node: [node.code, node.stdout.trim()], python: [python.code, python.stdout.trim()] };
    };
    const VERIFIED = { node: [0, 'verified'], python: [0, 'verified'] };
    const REFUSED = { node: [1, ''], python: [1, ''] };

    const client = await clientWithPairedPhone(stack);
    const webhooks = (path: string, body?: unknown) => stack.http('POST', `/smsapi/webhooks${path}`, { headers: { 'x-api-key': client.apiKey }, body });
    const created = await webhooks('', { url: receiverUrl, events: ['task.sent'] });
    expect(created.status).toBe(201);
    /** A task of the client's, sent by its phone, and smsq's delivery of its task.sent. */
    const sentAndDelivered = async (): Promise<Delivery> => {
      const task = await stack.createTask(client.apiKey, SMS);
      expect((await client.worker.poll()).body.id).toBe(task.body.id);
      expect((await client.worker.report(task.body.id, 'sent')).status).toBe(200);
      return eventually(
        () => {
          const delivery = deliveries.find((candidate) => candidate.event.type === 'task.sent' && candidate.event.data['id'] === task.body.id);
          expect(delivery).toBeDefined();
          return delivery!;
        },
        { timeoutMs: 15_000, intervalMs: 100 },
      );
    };
    const signed = (secret: string, t: number, body: Buffer) => `t=${t},v1=${createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex')}`;

    const delivery = await sentAndDelivered();
    const tampered = Buffer.from(delivery.body.toString('utf8').replace(SMS.message, 'Your code is 000000'));
    const now = Math.floor(Date.now() / 1000);

    expect(tampered.equals(delivery.body)).toBe(false);
    expect(await verdicts(delivery.body, delivery.signature, created.body.secret)).toEqual(VERIFIED);
    expect(await verdicts(tampered, delivery.signature, created.body.secret)).toEqual(REFUSED);
    expect(await verdicts(delivery.body, delivery.signature, `${created.body.secret}x`)).toEqual(REFUSED);
    expect(await verdicts(delivery.body, signed(created.body.secret, now, delivery.body), created.body.secret)).toEqual(VERIFIED);
    expect(await verdicts(delivery.body, signed(created.body.secret, now - 600, delivery.body), created.body.secret)).toEqual(REFUSED);

    // For 24 hours after a rotation each delivery carries a v1 for each secret: either one verifies it.
    const rotated = await webhooks(`/${created.body.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const afterRotation = await sentAndDelivered();

    expect(afterRotation.signature.match(/v1=/g)).toHaveLength(2);
    expect(await verdicts(afterRotation.body, afterRotation.signature, rotated.body.secret)).toEqual(VERIFIED);
    expect(await verdicts(afterRotation.body, afterRotation.signature, created.body.secret)).toEqual(VERIFIED);
    expect(await verdicts(afterRotation.body, afterRotation.signature, 'whsec_someone-else')).toEqual(REFUSED);
  });
});
