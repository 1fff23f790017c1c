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
  it("never shows the server's English message: a refusal says so, a server error says so", () => {
    expect(mutationErrorText(body(403, 'Forbidden'), undefined, t)).toBe('<common.errors.refused>');
    expect(mutationErrorText(body(500, 'Internal Server Error'), undefined, t)).toBe(
      '<common.errors.server>',
    );
    expect(mutationErrorText(body(404, 'Not Found'), undefined, t)).toBe('<common.errors.notFound>');
  });

  it('tells a network failure apart from a server error and from a bug', () => {
    expect(mutationErrorText(new ApiError(502, undefined), undefined, t)).toBe('<common.errors.server>');
    expect(mutationErrorText(new ApiError(0, undefined), undefined, t)).toBe('<common.errors.network>');
    expect(mutationErrorText(new Error('bug'), undefined, t)).toBe('<common.errors.unknown>');
  });

  it('stays silent when the mutation opts out', () => {
    expect(mutationErrorText(body(403, 'x'), { errorToast: false }, t)).toBeNull();
  });

  it('leaves field errors to the form, and shows the rest', () => {
    const meta = { errorToast: 'unlessFieldErrors' } as const;
    expect(mutationErrorText(body(400, 'Invalid', true), meta, t)).toBeNull();
    expect(mutationErrorText(body(409, 'Taken'), meta, t)).toBe('<common.errors.invalid>');
  });

  it('uses a fixed text where the mutation names one', () => {
    const meta = { errorText: 'device-metadata.rawMessage.failed' };
    expect(mutationErrorText(body(502, 'Gateway'), meta, t)).toBe('<device-metadata.rawMessage.failed>');
  });
});
