// A stand-in service for the supervisor's test. Its /healthz answers, in turn: 200, 200, 503, 503,
// 200 (two failures, then well again), then 503 for good, as a service whose connections cannot
// heal. Each answer is logged, so the test can tell after which one it was restarted.
import { createServer } from 'node:http';

const ANSWERS = [200, 200, 503, 503, 200];
const port = Number(process.argv[2]);
let checks = 0;
createServer((request, response) => {
  const status = ANSWERS[checks] ?? 503;
  checks += 1;
  process.stdout.write(`health ${checks}: ${status}\n`);
  response.writeHead(status).end();
}).listen(port, '127.0.0.1', () => process.stdout.write(`listening as ${process.pid}\n`));
process.on('SIGTERM', () => process.exit(0));
