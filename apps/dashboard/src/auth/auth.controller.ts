import { Body, Controller, Get, HttpCode, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import type { SessionAnswer, SessionUser } from '@smsq/dashboard-api';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AuthService, type StartedSession } from './auth.service.js';
import { BrowserCookies } from './browser-cookies.js';
import { PasswordChangeBody, SignInBody, SignUpBody } from './dto/credentials.body.js';
import { SessionGuard } from './session.guard.js';
import { SignedInUser } from './signed-in.decorators.js';
import { ClientDisabledFilter, RateLimitedFilter } from './rate-limited.filter.js';

@Controller('api/auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly cookies: BrowserCookies,
  ) {}

  /** Signed in or not; a browser without a session gets a pre-session cookie its CSRF token is tied to. */
  @Get('session')
  async session(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<SessionAnswer> {
    const { sessionId } = this.cookies.ids(request);
    const user = await this.auth.userOf(sessionId);
    if (user && sessionId) return this.auth.answer(user, sessionId);
    if (sessionId) this.cookies.clearSession(request, reply);
    return this.auth.answer(null, this.cookies.ensurePreSession(request, reply));
  }

  @Post('signup')
  @HttpCode(201)
  async signUp(@Body() body: SignUpBody, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<SessionAnswer> {
    return this.started(await this.auth.signUp(body, this.cookies.ids(request).sessionId), request, reply);
  }

  @Post('signin')
  @HttpCode(200)
  @UseFilters(RateLimitedFilter, ClientDisabledFilter)
  async signIn(@Body() body: SignInBody, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<SessionAnswer> {
    return this.started(await this.auth.signIn(body, request.ip, this.cookies.ids(request).sessionId), request, reply);
  }

  @Post('signout')
  @HttpCode(204)
  async signOut(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    await this.auth.signOut(this.cookies.ids(request).sessionId);
    this.cookies.clearSession(request, reply);
  }

  /** A new password: every other browser is signed out; this one gets a fresh session. */
  @Post('password')
  @HttpCode(200)
  @UseGuards(SessionGuard)
  @UseFilters(RateLimitedFilter)
  async changePassword(@SignedInUser() user: SessionUser, @Body() body: PasswordChangeBody, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<SessionAnswer> {
    return this.started(await this.auth.changePassword(user, body, request.ip, this.cookies.ids(request).sessionId), request, reply);
  }

  private started(started: StartedSession, request: FastifyRequest, reply: FastifyReply): SessionAnswer {
    this.cookies.setSession(request, reply, started.sessionId);
    return this.auth.answer(started.user, started.sessionId);
  }
}
