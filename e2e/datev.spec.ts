import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { unzipSync } from 'fflate';
import { apiSession, login, expectNoSidewaysScroll } from './helpers.ts';

// Long journey: on a busy 2-core machine it outlasts the default 30 s.
test.describe.configure({ timeout: 120_000 });

// The DATEV export (system billing page, master): device 28 of the demo fleet, which no other
// journey bills, gets a debtor with an umlaut in its name and one invoice of this month.
const DEVICE = 28;

const pad = (value: number) => String(value).padStart(2, '0');
const day = (date: Date) => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
/** A day (yyyy-MM-dd) as the German portal's date fields take it. */
const german = (isoDay: string) => isoDay.split('-').reverse().join('.');

test('a master enters the DATEV numbers and downloads the month for the tax advisor', async ({
  page,
  baseURL,
}) => {
  const api = await apiSession(baseURL!);
  const put = (path: string, data: object) =>
    api.context.put(`/api/v2/devices/${DEVICE}/${path}`, { headers: api.headers, data });
  // An integer, as the accounting service the e2e server is configured with (Lexware Office) wants.
  const debtor = String(200_000_000 + (Date.now() % 700_000_000));
  expect((await put('debtor', { ident: debtor })).status()).toBe(204);
  expect(
    (
      await put('billing-recipient', {
        recipient_address: 'Hofladen Bärbel Öhler\nDorfweg 1\n17489 Greifswald',
      })
    ).status(),
  ).toBe(204);
  const now = new Date();
  const first = new Date(now.getFullYear(), now.getMonth(), 1);
  const created = await api.context.post(`/api/v2/devices/${DEVICE}/billing-terms`, {
    headers: api.headers,
    data: {
      alias: 'custom',
      name: 'Füllstandsmessung',
      price: '10.00',
      charging_period_type: 'm',
      time_of_invoicing: 'begin',
      valid_from: day(first),
    },
  });
  expect(created.status()).toBe(201);
  const termsId = ((await created.json()) as { id: number }).id;
  expect(
    (await api.context.post('/api/v2/invoicing-runs', { headers: api.headers, data: {} })).status(),
  ).toBe(200);
  const invoices = (await (await api.context.get(`/api/v2/invoices?year=${now.getFullYear()}`)).json()) as {
    id: number;
    debtorIdent: string;
    totalPriceGross: string;
    billedAt: string;
  }[];
  const invoice = invoices.find((entry) => entry.debtorIdent === debtor)!;
  expect(invoice).toBeDefined();
  // The period: the month of the invoice (the run's day in German time) up to its day.
  const from = `${invoice.billedAt.slice(0, 8)}01`;
  const to = invoice.billedAt;
  const [entry] = (await (await api.context.get('/api/v2/datev-settings')).json()) as {
    whitelabel: { id: number };
  }[];
  const whitelabel = entry!.whitelabel.id;

  try {
    await login(page, 'master', `/system/billing/datev/${whitelabel}`);
    const dialog = page.getByRole('dialog', { name: /^DATEV: / });
    await expect(dialog).toBeVisible();
    // A Beraternummer below DATEV's range is refused on its field, as the server would.
    await dialog.getByLabel('Beraternummer').fill('1000');
    await dialog.getByLabel('Mandantennummer').fill('55003');
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(dialog.getByLabel('Beraternummer')).toHaveAttribute('aria-invalid', 'true');
    await dialog.getByLabel('Beraternummer').fill('29098');
    // SKR04 puts in its accounts.
    await dialog.getByLabel('Kontenrahmen').click();
    await page.getByRole('option', { name: 'SKR04' }).click();
    await expect(dialog.getByLabel('Forderungskonto')).toHaveValue('1210');
    await expect(dialog.getByLabel('Erlöse 19 %')).toHaveValue('4400');
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/system\/billing\/datev$/);
    const section = page.getByTestId(`datev-${whitelabel}`);
    await expect(section.getByTestId(`datev-${whitelabel}-receivableAccount`)).toContainText('1210');

    // A period across two years is refused before anything is asked.
    const form = page.getByTestId(`datev-export-${whitelabel}`);
    await form.getByTestId('datev-from').fill(german(`${Number(to.slice(0, 4)) - 1}-12-01`));
    await form.getByTestId('datev-to').fill(german(to));
    await form.getByRole('button', { name: 'Buchungsstapel herunterladen' }).click();
    await expect(form).toContainText('im selben Kalenderjahr');

    // This month: the ZIP with the Buchungsstapel and the invoice's PDF.
    await form.getByTestId('datev-from').fill(german(from));
    const download = page.waitForEvent('download');
    await form.getByRole('button', { name: 'Buchungsstapel herunterladen' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`DATEV_${from}_${to}.zip`);
    const zip = unzipSync(new Uint8Array(await readFile((await file.path())!)));
    expect(Object.keys(zip)).toContain(`Rechnung-${invoice.id}.pdf`);
    const csv = zip[`EXTF_Buchungsstapel_${from}_${to}.csv`]!;
    const lines = new TextDecoder('windows-1252').decode(csv).split('\r\n');
    expect(lines[0]).toMatch(/^"EXTF";700;21;"Buchungsstapel";13;\d{17};;"RE";"master";"";29098;55003;/);
    const booking = lines.find((line) => line.includes(`;"${invoice.id}";`))!;
    expect(booking.split(';').slice(0, 11)).toEqual([
      invoice.totalPriceGross.replace('.', ','),
      '"S"',
      '"EUR"',
      '',
      '',
      '',
      '1210',
      '4400',
      '""',
      // Belegdatum: the invoice's date as DDMM.
      `${invoice.billedAt.slice(8, 10)}${invoice.billedAt.slice(5, 7)}`,
      `"${invoice.id}"`,
    ]);
    expect(booking).toContain(`"Hofladen Bärbel Öhler ${debtor}"`);

    // On a phone the tab fits the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(form).toBeVisible();
    await expectNoSidewaysScroll(page);
  } finally {
    expect(
      (await api.context.delete(`/api/v2/billing-terms/${termsId}`, { headers: api.headers })).status(),
    ).toBe(204);
    expect((await put('billing-recipient', { recipient_address: '', leitweg_id: '' })).status()).toBe(204);
    expect((await put('debtor', { ident: null })).status()).toBe(204);
  }
});
