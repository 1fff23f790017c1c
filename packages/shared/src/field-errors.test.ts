import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toFieldError } from './field-errors.ts';
import { credentialsBody, loginBody } from './schemas/auth.ts';

const errorsOf = (schema: z.ZodType, data: unknown) => {
  const result = schema.safeParse(data);
  return result.success ? [] : result.error.issues.map(toFieldError);
};

describe('field errors from the shared schemas', () => {
  it('reports missing and empty fields as required', () => {
    expect(errorsOf(loginBody, {})).toEqual([
      { path: 'username', code: 'required', args: {} },
      { path: 'password', code: 'required', args: {} },
    ]);
    expect(errorsOf(loginBody, { username: '   ', password: '' })).toEqual([
      { path: 'username', code: 'required', args: {} },
      { path: 'password', code: 'required', args: {} },
    ]);
  });

  it('reports the password rules: minimum length 8, then the repeat must match', () => {
    expect(
      errorsOf(credentialsBody, { currentPassword: 'x', password: '1234567', passwordRepeat: '1234567' }),
    ).toEqual([{ path: 'password', code: 'min_length', args: { min: 8 } }]);
    expect(
      errorsOf(credentialsBody, { currentPassword: 'x', password: '12345678', passwordRepeat: '12345679' }),
    ).toEqual([{ path: 'passwordRepeat', code: 'password_mismatch', args: {} }]);
    expect(
      errorsOf(credentialsBody, { currentPassword: 'x', password: '12345678', passwordRepeat: '12345678' }),
    ).toEqual([]);
  });

  it('maps bounds of strings and numbers', () => {
    const schema = z.object({
      name: z.string().max(4),
      count: z.number().min(1).max(9),
      kind: z.enum(['a', 'b']),
    });
    expect(errorsOf(schema, { name: 'abcde', count: 10, kind: 'c' })).toEqual([
      { path: 'name', code: 'max_length', args: { max: 4 } },
      { path: 'count', code: 'max', args: { max: 9 } },
      { path: 'kind', code: 'invalid', args: {} },
    ]);
    expect(errorsOf(schema, { name: 'ab', count: 0, kind: 'a' })).toEqual([
      { path: 'count', code: 'min', args: { min: 1 } },
    ]);
  });
});
