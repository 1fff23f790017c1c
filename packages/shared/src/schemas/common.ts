import { z } from 'zod';

/** A missing or null value is "required"; every other issue keeps zod's own code. */
const requiredWhenMissing = (issue: { code?: string; input?: unknown }) =>
  issue.code === 'invalid_type' && issue.input == null ? 'required' : undefined;

/** A string field; absent or null answers `required`. */
export const text = () => z.string({ error: requiredWhenMissing });

/** A string that must not be empty after trimming. */
export const requiredText = () => text().trim().min(1, { error: 'required' });
