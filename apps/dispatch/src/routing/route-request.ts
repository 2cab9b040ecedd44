/** A new task's owner and the phone or gateway it asked for, if any. */
export interface RouteRequest {
  clientId: number;
  requestedPhoneId?: number;
}
