import { Module } from '@nestjs/common';
import { AdminUsersController } from './admin-users.controller.js';
import { PasswordHasher } from './password-hasher.js';
import { UsersRepository } from './users.repository.js';
import { UsersService } from './users.service.js';

@Module({
  controllers: [AdminUsersController],
  providers: [UsersRepository, UsersService, PasswordHasher],
  exports: [UsersService],
})
export class UsersModule {}
