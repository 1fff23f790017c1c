import { describe, expect, it } from 'vitest';
import { toFieldError } from '../field-errors.ts';
import { credentialsBody } from './auth.ts';

const errorsOf = (body: Record<string, string>) => {
  const result = credentialsBody.safeParse(body);
  return result.success ? [] : result.error.issues.map((issue) => toFieldError(issue));
};

describe('credentials body', () => {
  it('says an empty new password is required, not too short', () => {
    const errors = errorsOf({ currentPassword: 'x', password: '', passwordRepeat: '' });
    expect(errors.filter((error) => error.path === 'password')).toEqual([
      { path: 'password', code: 'required', args: {} },
    ]);
  });

  it('says a short new password is too short', () => {
    const errors = errorsOf({ currentPassword: 'x', password: 'abc', passwordRepeat: 'abc' });
    expect(errors).toEqual([{ path: 'password', code: 'min_length', args: { min: 8 } }]);
  });
});
