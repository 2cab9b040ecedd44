import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { Patterns, TemplateDeleteCommand, TemplateListQuery, TemplateSaveCommand, type Ok, type TemplateView } from '@smsq/contracts';
import { TemplatesService } from './templates.service.js';

/** The dashboard's templates: the same rules as the public API's. */
@Controller()
export class TemplatesMessagesController {
  constructor(private readonly templates: TemplatesService) {}

  @MessagePattern(Patterns.gateway.templateList)
  list(@Payload() query: TemplateListQuery): Promise<TemplateView[]> {
    return this.templates.list(query.clientId);
  }

  @MessagePattern(Patterns.gateway.templateSave)
  save(@Payload() command: TemplateSaveCommand): Promise<TemplateView> {
    return this.templates.save(command.clientId, command.id, command);
  }

  @MessagePattern(Patterns.gateway.templateDelete)
  delete(@Payload() command: TemplateDeleteCommand): Promise<Ok> {
    return this.templates.delete(command.clientId, command.id);
  }
}
