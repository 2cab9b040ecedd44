import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { constantTimeEqual } from '@smsq/platform';
import type { FastifyRequest } from 'fastify';
import { BasicAuthRequired } from '../errors/smsgate-errors.js';
import { SmsGateConfig } from '../smsgate-config.js';

/** The Local Server's Basic auth: every route but `/health` needs the phone's username and password. */
@Injectable()
export class BasicAuthGuard implements CanActivate {
  constructor(private readonly config: SmsGateConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const header = context.switchToHttp().getRequest<FastifyRequest>().headers.authorization;
    const credentials = header === undefined ? undefined : readBasicCredentials(header);
    // Both compared every time, so the answer's timing tells nothing about which one was wrong.
    const userMatches = constantTimeEqual(credentials?.username ?? '', this.config.username);
    const passwordMatches = constantTimeEqual(credentials?.password ?? '', this.config.password);
    if (credentials === undefined || !userMatches || !passwordMatches) throw new BasicAuthRequired();
    return true;
  }
}

function readBasicCredentials(header: string): { username: string; password: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
