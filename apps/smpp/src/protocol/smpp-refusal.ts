/** A request smsq refuses for a reason the protocol layer can name; `status` is its SMPP answer. */
export abstract class SmppRefusal extends Error {
  abstract readonly status: number;
}
