import { Module } from '@nestjs/common';
import { AdminUsersController } from './admin-users.controller.js';
import { PasswordHasher } from './password-hasher.js';
import { UsersRepository } from './users.repository.js';
import { UsersService } from './users.service.js';

@Module({
  controllers: [AdminUsersController],
  providers: [UsersRepository, UsersService, PasswordHasher],
  // The hasher too: a password reset hashes the new password before its one transaction.
  exports: [UsersService, PasswordHasher],
})
export class UsersModule {}
