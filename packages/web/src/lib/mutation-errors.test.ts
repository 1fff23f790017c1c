import { describe, expect, it } from 'vitest';
import type { TFunction } from 'i18next';
import { ApiError } from './api-client.ts';
import { mutationErrorText } from './mutation-errors.ts';

const t = ((key: string) => `<${key}>`) as unknown as TFunction;
const fieldErrors = [{ path: 'handle', code: 'required' as const, args: {} }];
const body = (status: number, message: string, withFields = false) =>
  new ApiError(status, {
    statusCode: status,
    error: 'x',
    message,
    fieldErrors: withFields ? fieldErrors : [],
  });

describe('mutation error toast', () => {
  it("shows the server's message", () => {
    expect(mutationErrorText(body(403, 'Not yours'), undefined, t)).toBe('Not yours');
  });

  it('falls back to the server error with a response and to the unknown error without one', () => {
    expect(mutationErrorText(new ApiError(500, undefined), undefined, t)).toBe('<common.errors.server>');
    expect(mutationErrorText(new ApiError(0, undefined), undefined, t)).toBe('<common.errors.unknown>');
    expect(mutationErrorText(new Error('bug'), undefined, t)).toBe('<common.errors.unknown>');
  });

  it('stays silent when the mutation opts out', () => {
    expect(mutationErrorText(body(403, 'x'), { errorToast: false }, t)).toBeNull();
  });

  it('leaves field errors to the form, and shows the rest', () => {
    const meta = { errorToast: 'unlessFieldErrors' } as const;
    expect(mutationErrorText(body(400, 'Invalid', true), meta, t)).toBeNull();
    expect(mutationErrorText(body(409, 'Taken'), meta, t)).toBe('Taken');
  });

  it('uses a fixed text where the mutation names one', () => {
    const meta = { errorText: 'device-metadata.rawMessage.failed' };
    expect(mutationErrorText(body(502, 'Gateway'), meta, t)).toBe('<device-metadata.rawMessage.failed>');
  });
});
