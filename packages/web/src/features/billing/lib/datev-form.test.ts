import { describe, expect, it } from 'vitest';
import { toFieldError } from '@tankportal/shared/field-errors';
import { datevSettingsSchema } from '@tankportal/shared/schemas/datev';
import { chartAccounts, datevBody, datevFormValues } from './datev-form.ts';

const errorsOf = (body: unknown) => {
  const result = datevSettingsSchema.safeParse(body);
  return result.success ? [] : result.error.issues.map((issue) => toFieldError(issue));
};

describe('DATEV form', () => {
  it('starts with SKR03 and its accounts, the numbers from the tax advisor left to fill in', () => {
    const values = datevFormValues(null);
    expect(values).toMatchObject({
      chart: 'SKR03',
      consultantNumber: '',
      clientNumber: '',
      accountLength: '4',
      receivableAccount: '1410',
    });
    expect(values.revenue.rate19.account).toBe('8400');
    // Not filled in: the server's words on both numbers, nothing else.
    expect(errorsOf(datevBody(values)).map((error) => `${error.path}:${error.code}`)).toEqual([
      'consultantNumber:required',
      'clientNumber:required',
    ]);
  });

  it("sends the numbers as numbers, and a chart's accounts are its own", () => {
    const values = { ...datevFormValues(null), consultantNumber: ' 29098 ', clientNumber: '55003' };
    expect(errorsOf(datevBody(values))).toEqual([]);
    expect(datevBody(values)).toMatchObject({
      consultantNumber: 29098,
      clientNumber: 55003,
      accountLength: 4,
    });
    expect(chartAccounts('SKR04')).toEqual({
      receivableAccount: '1210',
      revenue: {
        rate19: { account: '4400', taxKey: '' },
        rate7: { account: '4300', taxKey: '' },
        rate0: { account: '4200', taxKey: '' },
      },
    });
    // Letters in a number are refused, not read as none.
    expect(errorsOf(datevBody({ ...values, clientNumber: '55a' }))).toEqual([
      { path: 'clientNumber', code: 'invalid', args: {} },
    ]);
  });
});
