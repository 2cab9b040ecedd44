export const BODY_LIMIT_BYTES = 64 * 1024;
