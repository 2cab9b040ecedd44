import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { AdminCreateCommand, Patterns, type AdminCreated } from '@smsq/contracts';
import { UsersService } from './users.service.js';

/** What the admin command line asks of the dashboard over the broker. */
@Controller()
export class AdminUsersController {
  constructor(private readonly users: UsersService) {}

  @MessagePattern(Patterns.dashboard.adminCreate)
  createAdmin(@Payload() command: AdminCreateCommand): Promise<AdminCreated> {
    return this.users.createAdmin(command);
  }
}
