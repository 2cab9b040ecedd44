/** One spelling per address: surrounding spaces dropped, lower-cased. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}
