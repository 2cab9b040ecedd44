import { Module } from '@nestjs/common';
import { PasswordResetThrottle } from '../auth/sign-in-throttle.js';
import { DashboardConfig } from '../config/dashboard-config.js';
import { UsersModule } from '../users/users.module.js';
import { PasswordResetController } from './password-reset.controller.js';
import { PasswordResetService } from './password-reset.service.js';
import { PasswordResetsRepository } from './password-resets.repository.js';
import { ResetLinkDelivery, resetLinkDeliveryFor } from './reset-link-delivery.js';

@Module({
  imports: [UsersModule],
  controllers: [PasswordResetController],
  providers: [
    PasswordResetService,
    PasswordResetsRepository,
    PasswordResetThrottle,
    {
      provide: ResetLinkDelivery,
      inject: [DashboardConfig],
      useFactory: resetLinkDeliveryFor,
    },
  ],
})
export class PasswordResetModule {}
