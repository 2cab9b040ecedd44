/** A task's owner and the phone or gateway it asked for, if any. */
export interface RouteRequest {
  clientId: number;
  requestedPhoneId?: number;
  /** A phone to pass by where another is usable: the one a retried task just failed on. */
  avoidPhoneId?: number;
}
