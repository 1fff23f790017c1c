import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client.ts';
import { deviceIdErrors } from './device-id-errors.ts';

const refusal = (fieldErrors: unknown[]) =>
  new ApiError(400, { statusCode: 400, error: 'Bad Request', message: 'invalid', fieldErrors } as never);

describe('deviceIdErrors', () => {
  it('names the devices behind the indexes the server refused', () => {
    const error = refusal([
      { path: 'deviceIds.2', code: 'forbidden', args: {} },
      { path: 'deviceIds.0', code: 'not_queryable', args: {} },
    ]);
    expect(deviceIdErrors(error, [4, 9, 17])).toEqual({ refused: [4, 17], others: [] });
  });

  it('takes the array form of a path too, and keeps the other errors apart', () => {
    const error = refusal([
      { path: ['deviceIds', 1], code: 'forbidden', args: {} },
      { path: 'deviceIds', code: 'required', args: {} },
      { path: 'queryAt', code: 'invalid', args: {} },
    ]);
    expect(deviceIdErrors(error, [4, 9])).toEqual({
      refused: [9],
      others: [
        { path: 'deviceIds', code: 'required', args: {} },
        { path: 'queryAt', code: 'invalid', args: {} },
      ],
    });
  });

  it('is null for a failure without field errors', () => {
    expect(deviceIdErrors(new ApiError(403, undefined), [1])).toBeNull();
    expect(deviceIdErrors(new Error('x'), [1])).toBeNull();
  });
});
