import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { NotFoundError, Patterns, TasksCheckQuery, TasksSendCommand, type CreateTasksBody, type TasksChecked } from '@smsq/contracts';
import { ClientsRepository } from '../clients/clients.repository.js';
import { ClientTasksService, type TaskOwner } from './client-tasks.service.js';

/** create-tasks for the dashboard: a signed-in client sends through the same rules and credits as the public API. */
@Controller()
export class TasksMessagesController {
  constructor(
    private readonly tasks: ClientTasksService,
    private readonly clients: ClientsRepository,
  ) {}

  @MessagePattern(Patterns.gateway.tasksSend)
  async send(@Payload() command: TasksSendCommand): Promise<CreateTasksBody> {
    return this.tasks.createMany(await this.ownerOf(command.clientId), { tasks: command.tasks }, command.idempotencyKey);
  }

  @MessagePattern(Patterns.gateway.tasksCheck)
  async check(@Payload() query: TasksCheckQuery): Promise<TasksChecked> {
    return this.tasks.check(await this.ownerOf(query.clientId), { tasks: query.tasks });
  }

  private async ownerOf(clientId: number): Promise<TaskOwner> {
    const client = await this.clients.find(clientId);
    if (!client) throw new NotFoundError('client');
    return { clientId, timezone: client.timezone };
  }
}
