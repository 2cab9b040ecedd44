import 'reflect-metadata';
import { loadConfigOrExit, startService } from '@smsq/platform';
import { AppModule } from './app.module.js';
import { readGatewaySimConfig } from './config/gateway-sim-config.js';
import { smsGateHttp } from './smsgate/smsgate-http.js';

const config = loadConfigOrExit(readGatewaySimConfig);
const http = config.mode === 'smsgate' ? smsGateHttp() : {};
await startService({ name: 'gateway-sim', module: AppModule.register(config), config, port: config.port, ...http });
