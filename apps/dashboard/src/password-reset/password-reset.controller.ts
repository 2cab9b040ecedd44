import { Body, Controller, HttpCode, Post, Req, UseFilters } from '@nestjs/common';
import type { Ok } from '@smsq/contracts';
import type { FastifyRequest } from 'fastify';
import { RateLimitedFilter } from '../auth/rate-limited.filter.js';
import { PasswordResetBody, PasswordResetRequestBody } from './dto/password-reset.bodies.js';
import { PasswordResetService } from './password-reset.service.js';

@Controller('api/auth/password-reset')
export class PasswordResetController {
  constructor(private readonly resets: PasswordResetService) {}

  /** Always 202: a link is on its way if the address has an account. */
  @Post()
  @HttpCode(202)
  @UseFilters(RateLimitedFilter)
  async request(@Body() body: PasswordResetRequestBody, @Req() request: FastifyRequest): Promise<Ok> {
    await this.resets.request(body.email, request.ip);
    return { ok: true };
  }

  @Post('complete')
  @HttpCode(200)
  async complete(@Body() body: PasswordResetBody): Promise<Ok> {
    await this.resets.complete(body.token, body.newPassword);
    return { ok: true };
  }
}
