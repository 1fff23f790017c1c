import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client.ts';
import { errorKind } from './error-texts.ts';

describe('error kind', () => {
  it('reads the kind from the status, never from the message', () => {
    expect(errorKind(new ApiError(0, undefined))).toBe('network');
    expect(errorKind(new ApiError(403, undefined))).toBe('refused');
    expect(errorKind(new ApiError(404, undefined))).toBe('notFound');
    expect(errorKind(new ApiError(429, undefined))).toBe('tooMany');
    expect(errorKind(new ApiError(400, undefined))).toBe('invalid');
    expect(errorKind(new ApiError(409, undefined))).toBe('invalid');
    expect(errorKind(new ApiError(500, undefined))).toBe('server');
    expect(errorKind(new ApiError(502, undefined))).toBe('server');
    expect(errorKind(new ApiError(503, undefined))).toBe('unavailable');
    expect(errorKind(new TypeError('x is undefined'))).toBe('unknown');
  });
});
