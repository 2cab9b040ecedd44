import { createReadStream } from 'node:fs';
import { Controller, Get, NotFoundException, Param, Res } from '@nestjs/common';
import { openApiDocument } from '@smsq/contracts';
import type { FastifyReply } from 'fastify';
import { GatewayConfig } from '../config/gateway-config.js';
import { REFERENCE_ASSETS, REFERENCE_PAGE } from './reference-page.js';

/** The public API described: the OpenAPI document, and a page that reads it for people. */
@Controller()
export class ReferenceController {
  private readonly document: Record<string, unknown>;

  constructor(config: GatewayConfig) {
    this.document = openApiDocument({ profile: config.profile });
  }

  @Get('smsapi/openapi.json')
  openApi() {
    return this.document;
  }

  @Get('docs')
  page(@Res() reply: FastifyReply): FastifyReply {
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(REFERENCE_PAGE);
  }

  @Get('docs/:file')
  asset(@Param('file') file: string, @Res() reply: FastifyReply): FastifyReply {
    const asset = Object.hasOwn(REFERENCE_ASSETS, file) ? REFERENCE_ASSETS[file] : undefined;
    if (!asset) throw new NotFoundException();
    reply.type(asset.contentType).header('cache-control', 'public, max-age=3600');
    return reply.send(asset.kind === 'text' ? asset.text : createReadStream(asset.path));
  }
}
