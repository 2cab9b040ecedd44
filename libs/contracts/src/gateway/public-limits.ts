/**
 * The public API's limits, read by the gateway's request rules and by the OpenAPI document alike,
 * so the document cannot state one the gateway does not apply.
 */

/** create-task's `message`, counted in Unicode code points. */
export const MESSAGE_MAX_CODE_POINTS = 1600;

/** An `Idempotency-Key` header's most characters. */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/** The longest `ttl`, in seconds: a year and a day. */
export const MAX_TTL_S = 366 * 24 * 60 * 60;

/** `pending-tasks?wait=`: a longer wait counts as this many seconds. */
export const MAX_WAIT_S = 30;

/** `pending-tasks?limit=` and `task-statuses`' `next`: the most tasks one claim hands over. */
export const MAX_CLAIM_BATCH = 100;

/** The most reports one `task-statuses` request carries. */
export const MAX_REPORT_BATCH = 100;

/** `task-statuses`' body: room for 100 reports with errors of 1000 characters in any script. */
export const TASK_STATUSES_BODY_LIMIT_BYTES = 512 * 1024;

/** The most replies one `inbound` request stores. */
export const MAX_MESSAGES_PER_SYNC = 500;

/** `GET /smsapi/tasks`' page size: this when no `limit` is given, and at most the other. */
export const TASK_PAGE_DEFAULT_LIMIT = 50;
export const TASK_PAGE_MAX_LIMIT = 200;

/** The body of any other route, in bytes (create-tasks: `CREATE_TASKS_BODY_LIMIT_BYTES`). */
export const BODY_LIMIT_BYTES = 64 * 1024;
