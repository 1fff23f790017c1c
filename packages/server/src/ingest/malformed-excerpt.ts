import type { FieldError } from '@tankportal/shared/field-errors';

/** Characters of a refused body kept in its parsing_failed message (docs/protocols.md). */
export const EXCERPT_CHARS = 2048;
/** Reasons listed in a parsing_failed message; a body can be wrong in thousands of places. */
export const LISTED_REASONS = 20;
const PATH_CHARS = 120;

/**
 * Text PostgreSQL can store (the repair of what `isStorableText` in shared/schemas/common.ts
 * refuses): NUL and lone surrogates become U+FFFD, so logging a hostile body cannot fail (and
 * fail the publish or request with it).
 */
export function storableText(text: string): string {
  return text.replaceAll('\u0000', '\uFFFD').toWellFormed();
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (truncated, ${text.length} characters)`;
}

/** The start of a refused body, marked when cut: enough to see what the sender sent. */
export function excerpt(content: string): string {
  return storableText(cut(content, EXCERPT_CHARS));
}

/** Why a body was refused, as the message's report: the first reasons and how many more. */
export function reasonsText(fieldErrors: FieldError[]): string {
  const listed = fieldErrors
    .slice(0, LISTED_REASONS)
    .map(
      (e) =>
        `${cut(e.path, PATH_CHARS) || '(payload)'}: ${e.code}${e.args.reason ? ` (${cut(String(e.args.reason), PATH_CHARS)})` : ''}`,
    );
  const more = fieldErrors.length - listed.length;
  return storableText([...listed, ...(more > 0 ? [`… and ${more} more`] : [])].join('; '));
}
