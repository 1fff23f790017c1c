import { expect, test, type Page } from '@playwright/test';
import type { SimulationStats } from '../packages/simulator/src/simulator.ts';
import { startQueryAnsweringFleet } from './device-side.ts';
import { apiSession, login } from './helpers.ts';

// Devices of the demo fleet that belong to the demo account `user` (ids on a fresh database):
// 3, 9, 15, 21 and 27 are SMS devices, 57 an LX-IoT device.
const NEVER_REPORTED = 27; // its data is reset first: it has not reported since, for a day and longer
const MEMBERS = [15, 21];

/** GET /v2/devices/ids as `username` sees it, with the block query's filter. */
async function idsNotReportedFor(baseURL: string, seconds: number, username = 'user') {
  const api = await apiSession(baseURL, username);
  const answer = await api.context.get(
    `/api/v2/devices/ids?type=sms,lx_iot&permission=QUERY&not_reported_since=${seconds}`,
  );
  expect(answer.status()).toBe(200);
  const ids = (await answer.json()) as number[];
  await api.context.dispose();
  return ids;
}

const notice = (page: Page, text: string) => page.getByText(text).last();

test.describe('block query', () => {
  // The queries are polled every 5 s until every device has answered.
  test.describe.configure({ timeout: 90_000 });
  const stop = new AbortController();
  let run: Promise<SimulationStats>;

  test.beforeAll(async ({ baseURL }) => {
    ({ run } = await startQueryAnsweringFleet(baseURL!, stop.signal));

    // A device that has not reported for a day: the master resets its data (no last report then).
    const master = await apiSession(baseURL!);
    const reset = await master.context.post(`/api/v2/devices/${NEVER_REPORTED}/reset-data`, {
      headers: master.headers,
    });
    expect(reset.status()).toBe(204);
    await master.context.dispose();
  });

  test.afterAll(async () => {
    stop.abort();
    const stats = await run;
    expect(stats.failed).toBe(0);
  });

  test('the devices not reported for a day are queried, and each answers', async ({ page, baseURL }) => {
    const expected = await idsNotReportedFor(baseURL!, 86_400);
    expect(expected).toContain(NEVER_REPORTED);
    const count = expected.length;

    await login(page, 'user');
    await page.getByRole('link', { name: 'Blockabfrage' }).click();
    await expect(page).toHaveURL(/\/devices\/block-queries$/);
    const dialog = page.getByRole('dialog', { name: 'Blockabfrage' });
    await expect(dialog.getByTestId('device-choice-count')).toHaveText('0 Geräte ausgewählt');
    await expect(dialog.getByTestId('block-queries-submit')).toBeDisabled();

    // The quick selections ("1 h" … "7 days"), in German words.
    await dialog.getByRole('combobox', { name: 'Nicht gemeldet seit' }).click();
    const options = page.getByRole('listbox').getByRole('option');
    await expect(options).toHaveText([
      '1 h',
      '2 h',
      '3 h',
      '6 h',
      '12 h',
      '1 Tag',
      '2 Tage',
      '3 Tage',
      '7 Tage',
    ]);
    await options.filter({ hasText: /^1 Tag$/ }).click();
    await expect(dialog.getByTestId('device-choice-count')).toHaveText(
      count === 1 ? '1 Gerät ausgewählt' : `${count} Geräte ausgewählt`,
    );
    // The table lists the user's devices by number: the reset device is on the first page, ticked.
    await expect(
      dialog.getByRole('checkbox', { name: new RegExp(`^Gerät ${NEVER_REPORTED} `) }),
    ).toBeChecked();

    // "None", then "all" and back to the day: the quick selections choose exactly their devices.
    await dialog.getByRole('button', { name: 'Keine', exact: true }).click();
    await expect(dialog.getByTestId('device-choice-count')).toHaveText('0 Geräte ausgewählt');
    await dialog.getByRole('combobox', { name: 'Nicht gemeldet seit' }).click();
    await page.getByRole('option', { name: '1 Tag', exact: true }).click();
    await expect(dialog.getByTestId('device-choice-count')).toContainText(String(count));

    await dialog.getByTestId('block-queries-submit').click();
    await expect(notice(page, 'Die Abfragen wurden gestartet.')).toBeVisible();
    for (const id of expected.slice(0, 10))
      await expect(dialog.getByTestId(`block-query-${id}`)).toBeVisible();

    // Polled until every device has answered through the fake gateway (or over MQTT).
    await expect(dialog.getByTestId('block-query-finished')).toBeVisible({ timeout: 75_000 });
    await expect(dialog.getByTestId('block-query-summary')).toHaveText(
      `${count} beantwortet, 0 fehlgeschlagen, 0 noch offen (von ${count})`,
    );
    await expect(dialog.getByTestId(`block-query-${NEVER_REPORTED}`)).toContainText('beantwortet');
    await expect(dialog.getByRole('progressbar')).toHaveCount(0);

    // The device has reported since: it is no longer among those not reported for a day.
    expect(await idsNotReportedFor(baseURL!, 86_400)).not.toContain(NEVER_REPORTED);
    await dialog.getByRole('button', { name: 'Schließen' }).click();
    await expect(page).toHaveURL(/\/devices$/);
  });

  test('the demo account is offered neither block nor reference-date queries', async ({ page }) => {
    await login(page, 'demo');
    const actions = page.getByRole('toolbar', { name: 'Aktionen der Geräteliste' });
    await expect(actions.getByRole('link', { name: 'Export' })).toBeVisible();
    await expect(actions.getByRole('link', { name: 'Blockabfrage' })).toHaveCount(0);
    await expect(actions.getByRole('link', { name: 'Stichtagsabfragen' })).toHaveCount(0);
    await page.goto('/devices/block-queries');
    await expect(page).toHaveURL(/\/devices$/);
    await page.goto('/devices/ref-date-queries/new');
    await expect(page).toHaveURL(/\/devices$/);
  });
});

test.describe('reference-date queries', () => {
  test('created, edited, seen in a member device and removed there, then deleted', async ({
    page,
    baseURL,
  }) => {
    const before = await apiSession(baseURL!, 'user');
    const existing = (await (await before.context.get('/api/v2/ref-date-queries')).json()) as unknown[];
    await before.context.dispose();

    await login(page, 'user');
    await page.getByRole('link', { name: 'Stichtagsabfragen' }).click();
    await expect(page).toHaveURL(/\/devices\/ref-date-queries$/);
    const list = page.getByRole('dialog', { name: 'Stichtagsabfragen' });
    if (existing.length === 0)
      await expect(list.getByText('Keine Stichtagsabfragen vorhanden.')).toBeVisible();

    // Create: the form's defaults first.
    await list.getByRole('link', { name: 'Neue Stichtagsabfrage' }).click();
    await expect(page).toHaveURL(/\/devices\/ref-date-queries\/new$/);
    const form = page.getByRole('dialog', { name: 'Neue Stichtagsabfrage' });
    await expect(form.getByRole('radio', { name: 'Monatlich' })).toBeChecked();
    await expect(form.getByRole('radio', { name: 'Monatserster' })).toBeChecked();
    await expect(form.getByRole('combobox', { name: 'Älter als' })).toHaveText('30 min');
    await expect(form.getByLabel('Aktiv', { exact: true })).toBeChecked();
    await expect(form.getByLabel('Abfragezeit')).toHaveValue(/^([01]\d|2[0-3]):[0-5][05]$/);

    // Daily without a day and without a device: each says what to choose, the form stays.
    await form.getByRole('radio', { name: 'Täglich', exact: true }).click();
    await expect(form.getByRole('checkbox', { name: 'Sonntag' })).toBeVisible();
    await form.getByTestId('ref-date-query-save').click();
    await expect(form.getByTestId('intervals-daily')).toContainText('Wählen Sie mindestens einen Wochentag.');
    await expect(form.getByText('Wählen Sie mindestens ein Gerät.')).toBeVisible();
    await form.getByRole('checkbox', { name: 'Montag' }).check();
    await form.getByRole('checkbox', { name: 'Donnerstag' }).check();
    await expect(form.getByTestId('intervals-daily')).not.toContainText(
      'Wählen Sie mindestens einen Wochentag.',
    );

    await form.getByLabel('Abfragezeit').fill('06:15');
    await form.getByRole('combobox', { name: 'Älter als' }).click();
    await page.getByRole('option', { name: '2 h', exact: true }).click();
    for (const id of MEMBERS) await form.getByRole('checkbox', { name: new RegExp(`^Gerät ${id} `) }).check();
    await expect(form.getByTestId('device-choice-count')).toHaveText('2 Geräte ausgewählt');
    await form.getByTestId('ref-date-query-save').click();
    await expect(notice(page, 'Die Stichtagsabfrage wurde angelegt.')).toBeVisible();
    await expect(page).toHaveURL(/\/devices\/ref-date-queries$/);

    const row = list.getByTestId(/^ref-date-query-\d+$/).filter({ hasText: 'Mo, Do' });
    await expect(row).toHaveCount(1);
    const testId = (await row.getAttribute('data-testid'))!;
    const queryId = Number(testId.replace('ref-date-query-', ''));
    await expect(row.getByTestId('column-user')).toHaveText('user');
    await expect(row.getByTestId('column-intervalType')).toHaveText('Täglich');
    await expect(row.getByTestId('column-queryAt')).toHaveText('06:15');
    await expect(row.getByTestId('column-olderThan')).toHaveText('2 h');
    await expect(row.getByTestId('column-active')).toHaveText('aktiv');
    await expect(row.getByTestId('column-devices')).toHaveText('2');
    await expect(row.getByTestId('column-lastRunAt')).toHaveText('–');
    // The next run: a Monday or Thursday at 06:15 German time, in the German format.
    await expect(row.getByTestId('column-nextRunAt')).toHaveText(/^\d{2}\.\d{2}\.\d{4} 06:15$/);

    // Edit: every 6 hours, inactive. Esc with a change asks first; keep editing.
    await row.getByRole('link', { name: /^Stichtagsabfrage bearbeiten/ }).click();
    await expect(page).toHaveURL(new RegExp(`/devices/ref-date-queries/${queryId}$`));
    const edit = page.getByRole('dialog', { name: 'Stichtagsabfrage bearbeiten' });
    await expect(edit.getByRole('radio', { name: 'Täglich', exact: true })).toBeChecked();
    await expect(edit.getByRole('checkbox', { name: 'Montag' })).toBeChecked();
    await expect(edit.getByTestId('device-choice-count')).toHaveText('2 Geräte ausgewählt');
    await edit.getByRole('radio', { name: 'Mehrmals täglich' }).click();
    await expect(edit.getByRole('radio', { name: 'alle 12 Stunden' })).toBeChecked();
    await edit.getByRole('radio', { name: 'alle 6 Stunden' }).click();
    await edit.getByLabel('Aktiv', { exact: true }).uncheck();
    await page.keyboard.press('Escape');
    const discard = page.getByRole('dialog', { name: 'Änderungen verwerfen?' });
    await expect(discard).toBeVisible();
    await discard.getByRole('button', { name: 'Abbrechen' }).click();
    await expect(discard).toBeHidden();
    await expect(edit.getByRole('radio', { name: 'alle 6 Stunden' })).toBeChecked();
    await edit.getByTestId('ref-date-query-save').click();
    await expect(notice(page, 'Die Stichtagsabfrage wurde gespeichert.')).toBeVisible();
    await expect(page).toHaveURL(/\/devices\/ref-date-queries$/);
    const edited = list.getByTestId(`ref-date-query-${queryId}`);
    await expect(edited.getByTestId('column-intervalType')).toHaveText('Mehrmals täglich');
    await expect(edited.getByTestId('column-intervals')).toHaveText('alle 6 Std.');
    await expect(edited.getByTestId('column-active')).toHaveText('inaktiv');
    await expect(edited.getByTestId('column-nextRunAt')).toHaveText('–');

    // An id that names no query, and an unknown sub-path, lead back to the list.
    await page.goto('/devices/ref-date-queries/999999');
    await expect(page).toHaveURL(/\/devices\/ref-date-queries$/);
    await page.goto('/devices/ref-date-queries/new/more');
    await expect(page).toHaveURL(/\/devices\/ref-date-queries$/);

    // The member device's metadata tab lists the query; deleting there takes the device out.
    await page.goto(`/devices/${MEMBERS[0]}/settings/metadata`);
    const section = page.getByTestId('metadata-ref-date-queries');
    await expect(section.getByRole('heading', { name: 'Stichtagsabfragen' })).toBeVisible();
    const member = section.getByTestId(`device-ref-date-query-${queryId}`);
    await expect(member).toContainText('user');
    await expect(member).toContainText('Mehrmals täglich');
    await expect(member).toContainText('alle 6 Std.');
    await member.getByRole('button', { name: /^Aus der Stichtagsabfrage entfernen/ }).click();
    const confirm = page.getByRole('dialog', { name: 'Aus der Stichtagsabfrage entfernen' });
    await expect(confirm).toContainText('user');
    await confirm.getByRole('button', { name: 'Entfernen' }).click();
    // The notice says what happened: the device left, the query stays.
    await expect(notice(page, 'Das Gerät wurde aus der Stichtagsabfrage entfernt.')).toBeVisible();
    await expect(page.getByText('Die Stichtagsabfrage wurde gelöscht.')).toHaveCount(0);
    await expect(member).toHaveCount(0);

    // Its last device stays in the query: the notice says to delete the query instead, in German
    // and English.
    await page.goto(`/devices/${MEMBERS[1]}/settings/metadata`);
    const last = section.getByTestId(`device-ref-date-query-${queryId}`);
    for (const [language, remove, confirmLabel, refusal] of [
      [
        'DE',
        'Aus der Stichtagsabfrage entfernen',
        'Entfernen',
        'Das Gerät ist das einzige der Stichtagsabfrage und bleibt darin: Eine Stichtagsabfrage braucht ' +
          'mindestens ein Gerät. Löschen Sie stattdessen die Abfrage (in der Geräteliste unter „Stichtagsabfragen“).',
      ],
      [
        'EN',
        'Remove from the reference-date query',
        'Remove',
        'The device is the only one of the reference-date query and stays in it: a query needs at least ' +
          'one device. Delete the query instead (in the device list, under “Reference-date queries”).',
      ],
    ] as const) {
      if (language === 'EN') await page.getByRole('button', { name: 'EN', exact: true }).click();
      await last.getByRole('button', { name: new RegExp(`^${remove}`) }).click();
      await page.getByRole('dialog', { name: remove }).getByRole('button', { name: confirmLabel }).click();
      await expect(notice(page, refusal)).toBeVisible();
      await expect(page.getByRole('dialog', { name: remove })).toHaveCount(0);
      await expect(last).toBeVisible();
    }
    await page.getByRole('button', { name: 'DE', exact: true }).click();

    // The query keeps its other device; then it is deleted from the list, after a question.
    await page.goto('/devices/ref-date-queries');
    const remaining = page.getByTestId(`ref-date-query-${queryId}`);
    await expect(remaining.getByTestId('column-devices')).toHaveText('1');
    await remaining.getByRole('button', { name: /^Stichtagsabfrage löschen/ }).click();
    const question = page.getByRole('dialog', { name: 'Stichtagsabfrage löschen' });
    await expect(question).toContainText('alle 6 Std.');
    await question.getByRole('button', { name: 'Stichtagsabfrage löschen' }).click();
    await expect(notice(page, 'Die Stichtagsabfrage wurde gelöscht.')).toBeVisible();
    await expect(remaining).toHaveCount(0);
  });

  test('in English', async ({ page, baseURL }) => {
    await page.context().addCookies([{ name: 'tp_locale', value: 'en', url: baseURL! }]);
    await login(page, 'user', '/devices/block-queries');
    const dialog = page.getByRole('dialog', { name: 'Block query' });
    await dialog.getByRole('combobox', { name: 'Not reported since' }).click();
    await expect(page.getByRole('listbox').getByRole('option')).toHaveText([
      '1 h',
      '2 h',
      '3 h',
      '6 h',
      '12 h',
      '1 day',
      '2 days',
      '3 days',
      '7 days',
    ]);
    await page.keyboard.press('Escape');

    await page.goto('/devices/ref-date-queries/new');
    const form = page.getByRole('dialog', { name: 'New reference-date query' });
    await expect(form.getByRole('radio', { name: 'Monthly' })).toBeChecked();
    await expect(form.getByRole('radio', { name: 'First day' })).toBeChecked();
    await form.getByRole('radio', { name: 'Daily', exact: true }).click();
    const days = form.getByRole('group', { name: 'Days of the week' }).getByRole('checkbox');
    await expect(days).toHaveCount(7);
    await expect(days.first()).toHaveAccessibleName('Sunday');
    await form.getByTestId('ref-date-query-save').click();
    await expect(form.getByTestId('intervals-daily')).toContainText('Choose at least one day of the week.');
    await expect(form.getByText('Choose at least one device.')).toBeVisible();
    await form.getByRole('radio', { name: 'Several times a day' }).click();
    await expect(form.getByRole('radio', { name: 'every 12 hours' })).toBeChecked();
    await form.getByRole('combobox', { name: 'Older than' }).click();
    await expect(page.getByRole('listbox').getByRole('option')).toHaveText([
      '30 min',
      '1 h',
      '2 h',
      '6 h',
      '12 h',
      '24 h',
    ]);
  });
});
