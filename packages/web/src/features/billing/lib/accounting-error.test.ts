import { describe, expect, it } from 'vitest';
import type { TFunction } from 'i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { accountingErrorText } from './accounting-error.ts';

const t = ((key: string) => `t:${key}`) as unknown as TFunction;

describe('accountingErrorText', () => {
  it("shows a refusal's own message", () => {
    expect(accountingErrorText(new ApiError(409, { message: 'Already created' } as never), t)).toBe(
      'Already created',
    );
  });

  it('translates a failure of the accounting service by its name', () => {
    expect(accountingErrorText(new ApiError(503, { message: 'AccountingNotConfigured' } as never), t)).toBe(
      't:billing.accountingErrors.AccountingNotConfigured',
    );
    expect(accountingErrorText(new ApiError(502, { message: 'ContactNotFound' } as never), t)).toBe(
      't:billing.accountingErrors.ContactNotFound',
    );
  });

  it('falls back to the generic text without a body', () => {
    expect(accountingErrorText(new ApiError(502, undefined), t)).toBe('t:billing.accountingErrors.generic');
    expect(accountingErrorText(new ApiError(0, undefined), t)).toBe('t:billing.accountingErrors.generic');
  });
});
