/**
 * A refusal as the app answers it: a status and, from its routes and its StatusPages handler,
 * `{"message": "..."}`; some of its refusals (401, 404) have no body at all.
 */
export abstract class SmsGateError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly hasBody = true,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** 400: what the app throws as IllegalArgumentException or answers as a bad request. */
export class SmsGateBadRequest extends SmsGateError {
  constructor(message: string) {
    super(400, message);
  }
}

/** 400: a body Gson could not convert to the request's class (Ktor's BadRequestException). */
export class UnreadableBody extends SmsGateBadRequest {
  constructor(requestClass: string) {
    super(`Failed to convert request body to class ${requestClass}`);
  }
}

/** 409: a message id that is already in the phone's database. */
export class MessageIdTaken extends SmsGateError {
  constructor() {
    super(409, 'Message with the same ID already exists');
  }
}

/** 404 with no body, as the app answers an unknown message id. */
export class MessageNotFound extends SmsGateError {
  constructor(id: string) {
    super(404, `message ${id} not found`, false);
  }
}

/** 401 with a Basic challenge and no body. */
export class BasicAuthRequired extends SmsGateError {
  static readonly CHALLENGE = 'Basic realm="Access to SMS Gateway", charset=UTF-8';

  constructor() {
    super(401, 'a valid Basic credential is required', false);
  }
}
