import 'reflect-metadata';
import { loadConfigOrExit, startService } from '@smsq/platform';
import { AppModule } from './app.module.js';
import { readGatewaySimConfig } from './config/gateway-sim-config.js';

const config = loadConfigOrExit(readGatewaySimConfig);
await startService({ name: 'gateway-sim', module: AppModule.register(config), config, port: config.port });
