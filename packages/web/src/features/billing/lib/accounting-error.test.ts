import { describe, expect, it } from 'vitest';
import type { TFunction } from 'i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { accountingErrorText } from './accounting-error.ts';

const t = ((key: string) => `t:${key}`) as unknown as TFunction;

describe('accountingErrorText', () => {
  it('translates every failure by its name, refusals of a second try too (never the server English)', () => {
    expect(accountingErrorText(new ApiError(503, { message: 'AccountingNotConfigured' } as never), t)).toBe(
      't:billing.accountingErrors.AccountingNotConfigured',
    );
    expect(
      accountingErrorText(new ApiError(502, { message: 'AccountingConnectionRefused' } as never), t),
    ).toBe('t:billing.accountingErrors.AccountingConnectionRefused');
    expect(
      accountingErrorText(new ApiError(409, { message: 'AlreadyCreatedInAccounting' } as never), t),
    ).toBe('t:billing.accountingErrors.AlreadyCreatedInAccounting');
    expect(accountingErrorText(new ApiError(409, { message: 'SellerNotConfigured' } as never), t)).toBe(
      't:billing.exportErrors.SellerNotConfigured',
    );
  });

  it('says anything else by its kind', () => {
    expect(accountingErrorText(new ApiError(409, { message: 'Some English' } as never), t)).toBe(
      't:common.errors.invalid',
    );
    expect(accountingErrorText(new ApiError(502, undefined), t)).toBe('t:billing.accountingErrors.generic');
    expect(accountingErrorText(new ApiError(0, undefined), t)).toBe('t:common.errors.network');
  });
});
