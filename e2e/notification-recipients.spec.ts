import { expect, test, type Locator, type Page } from '@playwright/test';
import { apiSession, login, expectNoSidewaysScroll, pickOnlyOption } from './helpers.ts';

// Long multi-step journeys: on a busy 2-core machine they outlast the default 30 s.
test.describe.configure({ timeout: 60_000 });

// The notification recipients tab: who hears of a device's events. Device 33 belongs to
// the demo account `user` (see device-pages.spec.ts), who holds every permission on it.
const DEVICE = 33;
const TAB = `/devices/${DEVICE}/settings/notification-recipients`;

/** The checkbox of one event's channel in the events step, e.g. ("Alarm", "SMS"). */
const channel = (scope: Locator, event: string, name: 'SMS' | 'E-Mail') =>
  scope.getByRole('checkbox', { name: `${event}: ${name}`, exact: true });

async function createContact(page: Page, lastName: string, fields: Record<string, string>) {
  await page.goto('/contacts/new');
  const dialog = page.getByRole('dialog', { name: 'Neuer Kontakt' });
  await dialog.getByLabel('Nachname').fill(lastName);
  for (const [label, value] of Object.entries(fields)) await dialog.getByLabel(label).fill(value);
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await expect(page.getByText('Kontakt angelegt.')).toBeVisible();
}

test.describe('notification recipients', () => {
  test('two-step creation with a new and an existing contact, channel rules, edit and delete', async ({
    page,
  }) => {
    const stamp = Date.now();
    const mailOnly = `Mail${stamp}`;
    const smsOnly = `Sms${stamp}`;
    await login(page, 'user');
    await createContact(page, smsOnly, { Mobilnummer: '+49 170 1112223' });

    await page.goto(TAB);
    await expect(page.getByTestId('settings-tab-notification-recipients')).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await page.getByRole('link', { name: 'Empfänger hinzufügen' }).click();
    await expect(page).toHaveURL(new RegExp(`${TAB}/new$`));
    const dialog = page.getByRole('dialog', { name: 'Empfänger hinzufügen' });

    // Step 1: nothing chosen is refused; then a new contact with an e-mail address only.
    await dialog.getByRole('button', { name: 'Weiter' }).click();
    await expect(dialog.getByText('Dieser Wert darf nicht leer sein.')).toBeVisible();
    await dialog.getByRole('radio', { name: 'Neuer Kontakt' }).check();
    await dialog.getByLabel('Nachname').fill(mailOnly);
    await dialog.getByLabel('E-Mail').fill('mail-only@example.com');
    await dialog.getByRole('button', { name: 'Weiter' }).click();

    // Step 2: no SMS without a cell number; mail everywhere, forward has no SMS anyway.
    await expect(dialog.getByTestId('recipient-contact')).toContainText(mailOnly);
    await expect(
      dialog.getByText('Der Kontakt hat keine Mobilnummer: SMS sind nicht möglich.'),
    ).toBeVisible();
    for (const event of ['Alarm', 'Meldebestand', 'Weiterleitung', 'SIM-Guthaben niedrig']) {
      await expect(channel(dialog, event, 'SMS')).toBeDisabled();
      await expect(channel(dialog, event, 'E-Mail')).toBeEnabled();
    }
    // An event's interval is open once a channel is ticked; it starts at 12 hours.
    const alarmInterval = dialog.getByRole('textbox', { name: 'Alarm: Höchstens einmal in' });
    await expect(alarmInterval).toBeDisabled();
    await channel(dialog, 'Alarm', 'E-Mail').check();
    await expect(alarmInterval).toBeEnabled();
    await expect(alarmInterval).toHaveValue('12');
    await alarmInterval.fill('-1');
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(dialog.getByText('Dieser Wert muss größer oder gleich 0 sein.')).toBeVisible();
    await alarmInterval.fill('2');
    await dialog.getByRole('combobox', { name: 'Alarm: Einheit' }).click();
    await page.getByRole('option', { name: 'Tagen' }).click();
    await channel(dialog, 'Weiterleitung', 'E-Mail').check();
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText('Empfänger angelegt.')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(new RegExp(`${TAB}$`));

    const mailRow = page.getByRole('row').filter({ hasText: mailOnly });
    await expect(mailRow.getByTestId('recipient-event-alarm')).toHaveText(
      'Alarm: E-Mail (höchstens einmal in 2 Tagen)',
    );
    await expect(mailRow.getByTestId('recipient-event-forward')).toHaveText(
      'Weiterleitung: E-Mail (höchstens einmal in 12 Stunden)',
    );
    await expect(mailRow.getByTestId('recipient-event-threshold')).toHaveCount(0);

    // An existing contact with a cell number only: SMS but no mail, and forward not at all.
    await page.getByRole('link', { name: 'Empfänger hinzufügen' }).click();
    // The contact already a recipient is not offered again.
    await dialog.getByRole('combobox', { name: 'Kontakt' }).fill(`${stamp}`);
    await expect(page.getByRole('option', { name: new RegExp(mailOnly) })).toHaveCount(0);
    await page.getByRole('option', { name: new RegExp(smsOnly) }).click();
    await dialog.getByRole('button', { name: 'Weiter' }).click();
    await expect(dialog.getByTestId('recipient-contact')).toContainText(smsOnly);
    await expect(channel(dialog, 'Weiterleitung', 'SMS')).toBeDisabled();
    await expect(channel(dialog, 'Weiterleitung', 'E-Mail')).toBeDisabled();
    await expect(channel(dialog, 'Alarm', 'E-Mail')).toBeDisabled();
    await channel(dialog, 'Alarm', 'SMS').check();
    await channel(dialog, 'SIM-Guthaben niedrig', 'SMS').check();
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    // The first notice may still be showing.
    await expect(page.getByText('Empfänger angelegt.').last()).toBeVisible();
    const smsRow = page.getByRole('row').filter({ hasText: smsOnly });
    await expect(smsRow.getByTestId('recipient-event-alarm')).toHaveText(
      'Alarm: SMS (höchstens einmal in 12 Stunden)',
    );
    await expect(smsRow.getByTestId('recipient-event-sim_credit_low')).toBeVisible();

    // Edit the first: the alarm every 30 minutes, threshold by mail too (unset interval: 0 = every time).
    await mailRow.getByRole('link', { name: `Empfänger bearbeiten: ${mailOnly}` }).click();
    const edit = page.getByRole('dialog', { name: 'Empfänger bearbeiten' });
    await expect(channel(edit, 'Alarm', 'E-Mail')).toBeChecked();
    await expect(edit.getByRole('textbox', { name: 'Alarm: Höchstens einmal in' })).toHaveValue('2');
    await edit.getByRole('textbox', { name: 'Alarm: Höchstens einmal in' }).fill('30');
    await edit.getByRole('combobox', { name: 'Alarm: Einheit' }).click();
    await page.getByRole('option', { name: 'Minuten' }).click();
    await channel(edit, 'Meldebestand', 'E-Mail').check();
    await edit.getByRole('textbox', { name: 'Meldebestand: Höchstens einmal in' }).fill('0');
    await edit.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText('Benachrichtigungen gespeichert.')).toBeVisible();
    await expect(edit).toBeHidden();
    await expect(mailRow.getByTestId('recipient-event-alarm')).toHaveText(
      'Alarm: E-Mail (höchstens einmal in 30 Minuten)',
    );
    await expect(mailRow.getByTestId('recipient-event-threshold')).toHaveText('Meldebestand: E-Mail');

    // The contacts list counts the device.
    await page.goto('/contacts');
    await expect(page.getByRole('row').filter({ hasText: mailOnly }).getByTestId('device-count')).toHaveText(
      '1',
    );

    // A recipient that does not exist, or an id that is none, closes the dialog and says why.
    for (const id of ['999999', 'abc']) {
      await page.goto(`${TAB}/${id}`);
      await expect(page).toHaveURL(new RegExp(`${TAB}$`));
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await expect(page.getByText('Diesen Empfänger gibt es bei diesem Gerät nicht (mehr).')).toBeVisible();
    }

    // Delete after confirmation.
    await smsRow.getByRole('button', { name: `Empfänger entfernen: ${smsOnly}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Empfänger entfernen' });
    await confirm.getByRole('button', { name: 'Empfänger entfernen' }).click();
    await expect(page.getByText('Empfänger gelöscht.')).toBeVisible();
    await expect(smsRow).toHaveCount(0);
    await expect(mailRow).toBeVisible();
  });

  test('an admin picks a contact of the device owner; a cancelled new contact leaves nothing', async ({
    page,
    baseURL,
  }) => {
    const stamp = Date.now();
    const owners = `Kunde${stamp}`;
    const cancelled = `Storno${stamp}`;
    // A contact in the owner's (user's) book; the admin's own book has none of that name.
    const owner = await apiSession(baseURL!, 'user');
    const created = await owner.context.post('/api/v2/contacts', {
      headers: owner.headers,
      data: { lastName: owners, email: `kunde${stamp}@example.com` },
    });
    expect(created.status()).toBe(201);

    await login(page, 'admin', `${TAB}/new`);
    const dialog = page.getByRole('dialog', { name: 'Empfänger hinzufügen' });
    await dialog.getByRole('combobox', { name: 'Kontakt' }).fill(owners);
    await pickOnlyOption(page, new RegExp(`${owners}.*Kontakt von `));
    await dialog.getByRole('button', { name: 'Weiter' }).click();
    await expect(dialog.getByTestId('recipient-contact')).toContainText(`${owners}`);
    await expect(dialog.getByTestId('recipient-contact')).toContainText('Kontakt von ');
    await channel(dialog, 'Alarm', 'E-Mail').check();
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText('Empfänger angelegt.')).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: owners })).toBeVisible();

    // A new contact entered in step 1 and the dialog cancelled in step 2: no contact is created.
    await page.getByRole('link', { name: 'Empfänger hinzufügen' }).click();
    await dialog.getByRole('radio', { name: 'Neuer Kontakt' }).check();
    await dialog.getByLabel('Nachname').fill(cancelled);
    await dialog.getByRole('button', { name: 'Weiter' }).click();
    await expect(dialog.getByTestId('recipient-contact')).toContainText(cancelled);
    await dialog.getByRole('button', { name: 'Abbrechen' }).click();
    await expect(dialog).toBeHidden();
    const contacts = (await (await page.request.get('/api/v2/contacts')).json()) as { lastName: string }[];
    expect(contacts.map((contact) => contact.lastName)).not.toContain(cancelled);

    // On a phone the recipients are cards: nothing sticks out sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByRole('row').filter({ hasText: owners })).toBeVisible();
    await expectNoSidewaysScroll(page);
  });

  test('without EDIT the list is read-only', async ({ page }) => {
    // Device 4 belongs to `demo`: a demo account changes nothing.
    await login(page, 'demo', '/devices/4/settings/notification-recipients/new');
    await expect(page).toHaveURL(/\/devices\/4\/settings\/notification-recipients$/);
    await expect(page.getByTestId('recipients-tab')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Empfänger hinzufügen' })).toHaveCount(0);
  });
});
