/** A number in E.164 form, as create-task stores recipients and opt-out lists keep numbers. */
export const E164 = /^\+[1-9]\d{6,14}$/;

/** A number as people write it, without its separators: spaces, dashes, dots, brackets and slashes. */
export function withoutSeparators(text: string): string {
  return text.replace(/[\s\-.()/]/g, '');
}
