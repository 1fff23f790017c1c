import {
  DATEV_DEFAULT_ACCOUNTS,
  DATEV_RATES,
  type DatevChart,
  type DatevRate,
  type DatevSettings,
} from '@tankportal/shared/schemas/datev';

/** The form's values: every field as typed. */
export interface DatevFormValues {
  chart: DatevChart;
  consultantNumber: string;
  clientNumber: string;
  accountLength: string;
  receivableAccount: string;
  revenue: Record<DatevRate, { account: string; taxKey: string }>;
}

/** DATEV's usual general ledger account length. */
const DEFAULT_ACCOUNT_LENGTH = 4;

/** The chart's default accounts, as form values. */
export function chartAccounts(chart: DatevChart): Pick<DatevFormValues, 'receivableAccount' | 'revenue'> {
  const defaults = DATEV_DEFAULT_ACCOUNTS[chart];
  return {
    receivableAccount: defaults.receivableAccount,
    revenue: Object.fromEntries(
      DATEV_RATES.map((rate) => [rate, { ...defaults.revenue[rate] }]),
    ) as DatevFormValues['revenue'],
  };
}

/** Set settings as they are; none yet: SKR03 with its accounts, the numbers left to fill in. */
export function datevFormValues(settings: DatevSettings | null): DatevFormValues {
  if (!settings)
    return {
      chart: 'SKR03',
      consultantNumber: '',
      clientNumber: '',
      accountLength: String(DEFAULT_ACCOUNT_LENGTH),
      ...chartAccounts('SKR03'),
    };
  return {
    chart: settings.chart,
    consultantNumber: String(settings.consultantNumber),
    clientNumber: String(settings.clientNumber),
    accountLength: String(settings.accountLength),
    receivableAccount: settings.receivableAccount,
    revenue: settings.revenue,
  };
}

/** A number as typed; empty is none (the schema names it as required), anything else its value. */
const number = (text: string) => (text.trim() === '' ? undefined : Number(text.trim()));

/** The request body of the form's values, checked by the shared schema before it goes. */
export function datevBody(values: DatevFormValues) {
  return {
    ...values,
    consultantNumber: number(values.consultantNumber),
    clientNumber: number(values.clientNumber),
    accountLength: number(values.accountLength),
  };
}
