// A stand-in service for the supervisor's test: healthy for its first two health checks, then
// stuck for good (/healthz answers 503), as a service whose connections cannot heal.
import { createServer } from 'node:http';

const port = Number(process.argv[2]);
let checks = 0;
createServer((request, response) => {
  checks += 1;
  response.writeHead(checks <= 2 ? 200 : 503).end();
}).listen(port, '127.0.0.1', () => process.stdout.write(`listening as ${process.pid}\n`));
process.on('SIGTERM', () => process.exit(0));
