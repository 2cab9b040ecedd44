import { Global, Module } from '@nestjs/common';
import { SharedModule } from '../shared/shared.module.js';
import { UsersModule } from '../users/users.module.js';
import { AdminGuard } from './admin.guard.js';
import { AuthController } from './auth.controller.js';
import { AuthService } from './auth.service.js';
import { BrowserCookies } from './browser-cookies.js';
import { SessionGuard } from './session.guard.js';
import { SessionStore } from './session-store.js';
import { SignInThrottle } from './sign-in-throttle.js';

// Global so every feature module can put SessionGuard and AdminGuard on its controllers.
@Global()
@Module({
  imports: [UsersModule, SharedModule],
  controllers: [AuthController],
  providers: [AuthService, BrowserCookies, SessionStore, SignInThrottle, SessionGuard, AdminGuard],
  exports: [AuthService, SessionGuard, AdminGuard, SignInThrottle],
})
export class AuthModule {}
