import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AccountOpenCommand,
  AccountShowQuery,
  AccountsShowQuery,
  CreditsGrantCommand,
  Patterns,
  PlanSetCommand,
  type AccountView,
  type PlanView,
} from '@smsq/contracts';
import { AccountsService } from './accounts.service.js';

@Controller()
export class AccountsController {
  constructor(private readonly accounts: AccountsService) {}

  @MessagePattern(Patterns.billing.accountOpen)
  open(@Payload() command: AccountOpenCommand): Promise<AccountView> {
    return this.accounts.open(command);
  }

  @MessagePattern(Patterns.billing.accountShow)
  show(@Payload() query: AccountShowQuery): Promise<AccountView> {
    return this.accounts.show(query);
  }

  @MessagePattern(Patterns.billing.accountsShow)
  showMany(@Payload() query: AccountsShowQuery): Promise<AccountView[]> {
    return this.accounts.showMany(query);
  }

  @MessagePattern(Patterns.billing.creditsGrant)
  grant(@Payload() command: CreditsGrantCommand): Promise<AccountView> {
    return this.accounts.grant(command);
  }

  @MessagePattern(Patterns.billing.planSet)
  setPlan(@Payload() command: PlanSetCommand): Promise<PlanView> {
    return this.accounts.setPlan(command);
  }
}
