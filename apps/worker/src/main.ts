import { runWorkerCli } from './cli/worker-cli.js';

process.exit(await runWorkerCli(process.argv.slice(2), process.env));
