/** The answer of a command that has nothing to return but success. */
export interface Ok {
  ok: true;
}
