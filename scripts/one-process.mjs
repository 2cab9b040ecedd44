// Several smsq services in one Node process, for small installs: `npm start` runs the API, billing,
// dispatch, inbox and the dashboard this way unless SMSQ_PROCESSES=many. Each service keeps its own
// modules, database role, queue and port, and they still talk to each other over RabbitMQ, so they
// behave as they do apart; run them as separate processes to scale out.
//   node scripts/one-process.mjs billing dispatch inbox smpp api-gateway [dashboard]
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from './lib/workspace.mjs';

const SERVICES = ['billing', 'dispatch', 'inbox', 'smpp', 'api-gateway', 'dashboard'];
const asked = process.argv.slice(2);
const unknown = asked.filter((service) => !SERVICES.includes(service));
if (asked.length === 0 || unknown.length > 0) {
  process.stderr.write(`usage: node scripts/one-process.mjs <service>…, services: ${SERVICES.join(', ')}${unknown.length ? `; unknown: ${unknown.join(', ')}` : ''}\n`);
  process.exit(64);
}
// In the order asked: the services others call first, the public API last (it drains first). Each
// service's part of the build made for this process (apps/one-process), not its one-file build: the
// parts share one copy of Nest, Prisma and every other library, where four one-file builds would
// load four.
for (const service of asked) await import(pathToFileURL(join(root, 'apps', service, 'one-process', 'main.mjs')).href);
