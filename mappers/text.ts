/** Text helpers shared by mappers. */

/** Longest excerpt, in characters (code points), before it is cut with an ellipsis. */
export const EXCERPT_LENGTH = 140;

/** The start of `text`, cut on a code-point boundary, with `…` when something was cut. */
export function excerpt(text: string, max: number = EXCERPT_LENGTH): string {
  const chars = Array.from(text.trim());
  return chars.length <= max ? chars.join('') : `${chars.slice(0, max - 1).join('')}…`;
}
