import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  OptOutAddCommand,
  OptOutCheckQuery,
  OptOutListQuery,
  OptOutRemoveCommand,
  OptOutSettingsQuery,
  OptOutSettingsUpdate,
  Patterns,
  type Ok,
  type OptOutPage,
  type OptOutSettingsView,
  type OptOutsAdded,
} from '@smsq/contracts';
import { OptOutsService } from './opt-outs.service.js';

@Controller()
export class OptOutsController {
  constructor(private readonly optOuts: OptOutsService) {}

  @MessagePattern(Patterns.dispatch.optOutList)
  list(@Payload() query: OptOutListQuery): Promise<OptOutPage> {
    return this.optOuts.list(query);
  }

  @MessagePattern(Patterns.dispatch.optOutAdd)
  add(@Payload() command: OptOutAddCommand): Promise<OptOutsAdded> {
    return this.optOuts.add(command);
  }

  @MessagePattern(Patterns.dispatch.optOutRemove)
  remove(@Payload() command: OptOutRemoveCommand): Promise<Ok> {
    return this.optOuts.remove(command);
  }

  @MessagePattern(Patterns.dispatch.optOutCheck)
  check(@Payload() query: OptOutCheckQuery): Promise<string[]> {
    return this.optOuts.check(query);
  }

  @MessagePattern(Patterns.dispatch.optOutSettingsGet)
  settings(@Payload() query: OptOutSettingsQuery): Promise<OptOutSettingsView> {
    return this.optOuts.settings(query.clientId);
  }

  @MessagePattern(Patterns.dispatch.optOutSettingsUpdate)
  updateSettings(@Payload() update: OptOutSettingsUpdate): Promise<OptOutSettingsView> {
    return this.optOuts.updateSettings(update);
  }
}
