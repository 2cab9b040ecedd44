/** A task's owner, its recipient and the phone or gateway it asked for, if any. */
export interface RouteRequest {
  clientId: number;
  /** The number it goes to: sticky routing and recipient caps place it. Without one, neither applies. */
  recipient?: string;
  requestedPhoneId?: number;
  /** A phone to pass by where another is usable: the one a retried task just failed on. */
  avoidPhoneId?: number;
}
