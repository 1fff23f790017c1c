import { expect, test } from '@playwright/test';
import { startFakeGateway, type FakeGateway, type GatewaySms } from '../packages/simulator/src/gateway.ts';
import { devicePorts, SMS_WEBHOOK_TOKEN } from './device-side.ts';
import { apiSession, login } from './helpers.ts';

test.describe.configure({ timeout: 90_000 });

// Device 11 of the demo fleet: an SMS device of `admin` that no other journey touches (its log is
// empty at first), sent to through Lionel; the server's gateway API points at the fake gateway
// started for those journeys, which records what it receives.
const SMS_DEVICE = 11;
// Device 5: another SMS device of `admin` (a cell number, through Lionel) that no other journey
// touches; while its journey runs, no gateway answers.
const UNREACHABLE_DEVICE = 5;
const received: GatewaySms[] = [];
let gateway: FakeGateway;

test.describe('a send that no gateway takes', () => {
  // The browser in English, the portal in German: dates and times follow the portal.
  test.use({ locale: 'en-US' });

  test('the dialog says that the SMS was not sent and why (gateway unreachable, none configured), in German and English; the log shows it failed', async ({
    page,
  }) => {
    await login(page, 'admin', `/devices/${UNREACHABLE_DEVICE}/messages`);
    const log = page.getByTestId('message-log');
    await expect(log.getByLabel('Von')).toHaveValue(/^\d{2}\.\d{2}\.\d{4}$/);
    await log.getByRole('button', { name: 'SMS senden' }).click();
    const dialog = page.getByRole('dialog', { name: 'SMS senden' });
    await dialog.getByLabel(/^Inhalt/).fill('STATUS?');
    await dialog.getByRole('button', { name: 'Senden' }).click();
    const notSent = dialog.getByRole('alert');
    await expect(notSent).toContainText('Die Nachricht wurde nicht gesendet.');
    await expect(notSent).toContainText(
      'Das SMS-Gateway war nicht erreichbar. Bitte später erneut versuchen.',
    );
    await expect(page.getByText('Nachricht gesendet.')).toHaveCount(0);
    // What the server noted stays at hand for support, behind a toggle.
    await expect(notSent.getByText(/gateway not reachable/)).toBeHidden();
    await notSent.getByRole('button', { name: 'Technische Details' }).click();
    await expect(notSent.getByText(/gateway not reachable/)).toBeVisible();

    // No gateway configured for the device's provider: the server logs the SMS as not sent and
    // answers 201 with that status and why (raw-messages.test.ts). This server has both providers'
    // APIs (other journeys use them), so the journey hands the dialog that answer: the server's
    // own row, with the reason a server without Lionel's API gives.
    await page.route('**/api/v2/messages', async (route) => {
      if (route.request().method() !== 'POST') return route.fallback();
      const response = await route.fetch();
      const message = (await response.json()) as Record<string, unknown>;
      expect(message.status).toBe('sending_failed');
      await route.fulfill({
        response,
        json: { ...message, report: 'the lionel gateway API is not configured' },
      });
    });
    await dialog.getByRole('button', { name: 'Senden' }).click();
    await expect(notSent).toContainText(
      'Das SMS-Gateway (Lionel) ist in diesem Portal nicht eingerichtet. Bitte wenden Sie sich an den Betreiber des Portals.',
    );
    await expect(notSent).not.toContainText('nicht erreichbar');
    await expect(notSent).toContainText('Die Nachricht wurde nicht gesendet.');
    await expect(page.getByText('Nachricht gesendet.')).toHaveCount(0);
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Abbrechen' }).click();
    await expect(dialog).toBeHidden();

    const row = log.getByTestId('message-table').locator('tbody tr').first();
    await expect(row).toContainText('STATUS?');
    await expect(row).toContainText('Senden fehlgeschlagen');
    await row.click();
    const detail = page.getByRole('dialog', { name: /^Nachricht \d+$/ });
    await expect(detail.getByTestId('message-report')).toContainText('Das SMS-Gateway war nicht erreichbar.');
    await expect(detail.getByTestId('message-report').getByText(/gateway not reachable/)).toBeHidden();
    await expect(detail.getByTestId('message-to')).toContainText('+491705550005 · Rufnummer');
    const messageId = /\d+$/.exec((await detail.getByRole('heading').textContent())!)![0];
    await detail.getByRole('button', { name: 'Schließen' }).click();

    // The message is device 5's: in another device's pages it is not shown, the list is.
    await page.goto(`/devices/${SMS_DEVICE}/messages/${messageId}`);
    await expect(page.getByText('Dieses Gerät hat keine solche Nachricht.')).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/devices/${SMS_DEVICE}/messages$`));
    await expect(page.getByRole('dialog')).toHaveCount(0);

    // In English: the same failure, and its reason, in English.
    await page.goto(`/devices/${UNREACHABLE_DEVICE}/messages`);
    await page.getByRole('button', { name: 'EN', exact: true }).click();
    await log.getByRole('button', { name: 'Send SMS' }).click();
    const english = page.getByRole('dialog', { name: 'Send SMS' });
    await english.getByLabel(/^Content/).fill('STATUS?');
    await english.getByRole('button', { name: 'Send' }).click();
    const failed = english.getByRole('alert');
    await expect(failed).toContainText('The message was not sent.');
    await expect(failed).toContainText(
      'The SMS gateway (Lionel) is not set up on this portal. Please contact the portal operator.',
    );
    await expect(page.getByText('Message sent.')).toHaveCount(0);
    await failed.getByRole('button', { name: 'Technical details' }).click();
    await expect(failed.getByText('the lionel gateway API is not configured')).toBeVisible();
    await english.getByRole('button', { name: 'Cancel' }).click();
    await expect(english).toBeHidden();
  });

  test('the time of a reference-date query is typed as the portal writes it, not as the browser does', async ({
    page,
  }) => {
    await login(page, 'user', '/devices/ref-date-queries/new');
    const form = page.getByRole('dialog', { name: 'Neue Stichtagsabfrage' });
    const time = form.getByLabel('Abfragezeit');
    await expect(time).toHaveValue(/^([01]\d|2[0-3]):[0-5]\d$/);
    // The English browser's way is no time in the German portal: refused on the field, nothing saved.
    await time.fill('06:15 PM');
    await form.getByTestId('ref-date-query-save').click();
    await expect(time).toHaveAttribute('aria-invalid', 'true');
    await time.fill('18:15');
    await expect(time).toHaveAttribute('aria-invalid', 'false');
  });
});

test.describe('messages', () => {
  test.beforeAll(async ({ baseURL }) => {
    // It reports each SMS delivered, as the real gateways do (the delivery report webhook).
    gateway = await startFakeGateway(
      devicePorts(Number(new URL(baseURL!).port)).gateway,
      (sms) => received.push(sms),
      '127.0.0.1',
      { server: baseURL!, tokens: { lionel: SMS_WEBHOOK_TOKEN, '1nce': SMS_WEBHOOK_TOKEN } },
    );
  });
  test.afterAll(async () => {
    await gateway.close();
  });

  test('an admin sends SMS to a device, which the gateway receives; filters and walks the device messages', async ({
    page,
  }) => {
    await login(page, 'admin', `/devices/${SMS_DEVICE}`);
    await page
      .getByRole('navigation', { name: 'Geräteseiten' })
      .getByRole('link', { name: 'Nachrichten' })
      .click();
    await expect(page).toHaveURL(new RegExp(`/devices/${SMS_DEVICE}/messages$`));
    const log = page.getByTestId('message-log');
    await expect(log).toBeVisible();

    const texts = ['STATUS?', 'INTERVALL 6H', 'ABFRAGE'];
    for (const text of texts) {
      await log.getByRole('button', { name: 'SMS senden' }).click();
      const dialog = page.getByRole('dialog', { name: 'SMS senden' });
      const content = dialog.getByLabel(/^Inhalt/);
      // 160 characters at most: more is named on the field.
      await content.fill('x'.repeat(161));
      await dialog.getByRole('button', { name: 'Senden' }).click();
      await expect(dialog.getByText('höchstens 160 Zeichen', { exact: false })).toBeVisible();
      await content.fill(text);
      await expect(dialog.getByText(`${text.length} von 160 Zeichen`)).toBeVisible();
      await dialog.getByRole('button', { name: 'Senden' }).click();
      await expect(page.getByText('Nachricht gesendet.').first()).toBeVisible();
      await expect(dialog).toBeHidden();
    }
    await expect.poll(() => received.map((sms) => sms.text)).toEqual(expect.arrayContaining(texts));

    // The log: newest first, sent, outgoing; the total above.
    await expect(log.getByText('3 Nachrichten')).toBeVisible();
    const rows = log.getByTestId('message-table').locator('tbody tr');
    await expect(rows).toHaveCount(3);
    await expect(rows.first()).toContainText('ABFRAGE');
    await expect(rows.first()).toContainText('ausgehend');
    // Sent, then delivered by the gateway's report: the log shows it after a refresh.
    await expect(async () => {
      await log.getByRole('button', { name: 'Aktualisieren' }).click();
      for (const row of await rows.all()) await expect(row).toContainText('zugestellt', { timeout: 1000 });
    }).toPass({ timeout: 30_000 });

    // Filters: no incoming message; all outgoing ones.
    await log.getByRole('combobox', { name: 'Richtung' }).click();
    await page.getByRole('option', { name: 'eingehend' }).click();
    await expect(log.getByTestId('messages-empty')).toHaveText('Keine Nachrichten passen zum Filter.');
    await log.getByRole('combobox', { name: 'Richtung' }).click();
    await page.getByRole('option', { name: 'ausgehend' }).click();
    await expect(rows).toHaveCount(3);
    // Days are typed as the German portal writes them; a future day is refused on its field, the
    // list stays as it was.
    const to = log.getByLabel('Bis');
    await expect(to).toHaveValue(/^\d{2}\.\d{2}\.\d{4}$/);
    const today = await to.inputValue();
    await to.fill('31.12.2099');
    await expect(log.getByText('Das Datum liegt in der Zukunft.')).toBeVisible();
    await expect(rows).toHaveCount(3);
    await to.fill('12/31/2026');
    await expect(log.getByText('Bitte ein Datum im Format TT.MM.JJJJ eingeben.')).toBeVisible();
    await to.fill(today);
    await expect(log.getByText('Das Datum liegt in der Zukunft.')).toHaveCount(0);

    // Sorted as the server sorts: oldest first.
    await log.getByRole('combobox', { name: 'Sortierung' }).click();
    await page.getByRole('option', { name: 'Älteste zuerst' }).click();
    await expect(rows.first()).toContainText('STATUS?');
    await log.getByRole('combobox', { name: 'Sortierung' }).click();
    await page.getByRole('option', { name: 'Neueste zuerst' }).click();
    await expect(rows.first()).toContainText('ABFRAGE');

    // In English: the order, and the days as the English portal writes them.
    await page.getByRole('button', { name: 'EN', exact: true }).click();
    await log.getByRole('combobox', { name: 'Order' }).click();
    await page.getByRole('option', { name: 'Oldest first' }).click();
    await expect(rows.first()).toContainText('STATUS?');
    const until = log.getByLabel('To', { exact: true });
    await expect(until).toHaveValue(/^\d{2}\/\d{2}\/\d{4}$/);
    const todayInEnglish = await until.inputValue();
    await until.fill('12/31/2099');
    await expect(log.getByText('The date is in the future.')).toBeVisible();
    await expect(rows).toHaveCount(3);
    await until.fill('31.12.2026');
    await expect(log.getByText('Please enter a date as MM/DD/YYYY.')).toBeVisible();
    await until.fill(todayInEnglish);
    await expect(log.getByText('The date is in the future.')).toHaveCount(0);
    await log.getByRole('combobox', { name: 'Order' }).click();
    await page.getByRole('option', { name: 'Newest first' }).click();
    await expect(rows.first()).toContainText('ABFRAGE');
    await page.getByRole('button', { name: 'DE', exact: true }).click();

    // The detail walks the loaded list, its ends disabled.
    await rows.first().click();
    const detail = page.getByRole('dialog', { name: /^Nachricht \d+$/ });
    await expect(detail.getByTestId('message-content')).toHaveText('ABFRAGE');
    await expect(detail.getByRole('button', { name: 'Vorherige Nachricht' })).toBeDisabled();
    await detail.getByRole('button', { name: 'Nächste Nachricht' }).click();
    await expect(detail.getByTestId('message-content')).toHaveText('INTERVALL 6H');
    await detail.getByRole('button', { name: 'Nächste Nachricht' }).click();
    await expect(detail.getByTestId('message-content')).toHaveText('STATUS?');
    await expect(detail.getByRole('button', { name: 'Nächste Nachricht' })).toBeDisabled();
    await expect(detail.getByTestId('message-status')).toContainText('zugestellt');
    await expect(detail.getByTestId('message-report')).toContainText(
      'Das SMS-Gateway hat einen Zustellbericht geschickt.',
    );
    await expect(detail.getByTestId('message-to')).toContainText('Rufnummer');
    await detail.getByRole('button', { name: 'Schließen' }).click();
    await expect(detail).toBeHidden();
  });

  test('the global log pages an admin by next and previous, SMS by default; a user has none', async ({
    page,
    baseURL,
  }) => {
    // 55 more SMS to the device (the first journey sent 3): more than a page of 50.
    const api = await apiSession(baseURL!, 'admin');
    for (let i = 1; i <= 55; i++) {
      const sent = await api.context.post('/api/v2/messages', {
        headers: api.headers,
        data: { type: 'sms', device_id: SMS_DEVICE, content: `Rundruf ${i}` },
      });
      expect(sent.status()).toBe(201);
    }
    await api.context.dispose();

    await login(page, 'admin');
    await page.getByRole('link', { name: 'Nachrichten' }).click();
    await expect(page).toHaveURL(/\/messages$/);
    // One heading: the page's.
    await expect(page.getByRole('heading', { name: 'Nachrichten', exact: true })).toHaveCount(1);
    const log = page.getByTestId('message-log');
    await expect(log.getByRole('combobox', { name: 'Typ' })).toHaveText('SMS');
    await log.getByRole('combobox', { name: 'Pro Seite' }).click();
    await page.getByRole('option', { name: '50', exact: true }).click();
    const rows = log.getByTestId('message-table').locator('tbody tr');
    await expect(rows).toHaveCount(50);
    await expect(rows.first()).toContainText('Rundruf 55');
    await expect(log.getByRole('button', { name: 'Zurück' })).toBeDisabled();
    await log.getByRole('button', { name: 'Weiter' }).click();
    await expect(log.getByText('Seite 2')).toBeVisible();
    await expect(rows.first()).toContainText('Rundruf 5');
    await log.getByRole('button', { name: 'Zurück' }).click();
    await expect(rows.first()).toContainText('Rundruf 55');
    // In English, one heading too.
    await page.getByRole('button', { name: 'EN', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Messages', exact: true })).toHaveCount(1);
    await expect(log.getByRole('combobox', { name: 'Order' })).toHaveText('Newest first');

    await page.context().clearCookies();
    await login(page, 'user');
    await expect(page.getByRole('link', { name: 'Nachrichten' })).toHaveCount(0);
  });
});

test.describe('releasing a message', () => {
  test('a master releases the SMS of an unknown number once a device has that number', async ({
    page,
    request,
    baseURL,
  }) => {
    const number = `+49170${String(Date.now()).slice(-7)}`;
    const sms = await request.post('/ingest/sms/lionel', {
      headers: { 'x-webhook-token': SMS_WEBHOOK_TOKEN },
      data: { messageId: `e2e-release-${number}`, from: number, text: 'TP1;77;20261124060000;S1=2500' },
    });
    expect(await sms.json()).toEqual({ status: 'unknown_sender' });

    await login(page, 'master', '/messages');
    const log = page.getByTestId('message-log');
    await log.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'unbekannt' }).click();
    await log.getByTestId('message-table').locator('tbody tr').filter({ hasText: number }).click();
    const detail = page.getByRole('dialog', { name: /^Nachricht \d+$/ });
    await detail.getByRole('button', { name: 'Freigeben' }).click();
    await expect(
      page.getByText(
        'Ein Fehler ist aufgetreten, die Nachricht konnte nicht freigegeben werden. Noch hat kein Gerät diesen Absender',
        { exact: false },
      ),
    ).toBeVisible();

    // The device with that number is created; the release now processes the SMS.
    const api = await apiSession(baseURL!);
    const gateways = (await (await api.context.get('/api/v2/sms-gateways')).json()) as {
      id: number;
      provider: string;
    }[];
    const lionel = gateways.find((gateway) => gateway.provider === 'lionel')!.id;
    const created = await api.context.post('/api/v2/devices', {
      headers: api.headers,
      data: {
        type: 'sms',
        sms_gateway_type: 'lionel',
        name: 'Freigabe',
        address: { country_code: 'DE' },
        cell_number: number,
        inbound_gateway_id: lionel,
        outbound_gateway_id: lionel,
      },
    });
    expect(created.status()).toBe(201);
    await detail.getByRole('button', { name: 'Freigeben' }).click();
    await expect(page.getByText('Nachricht freigegeben: als Meldung verarbeitet.')).toBeVisible();
    await expect(detail.getByTestId('message-status')).toContainText('freigegeben');
    const { device } = (await created.json()) as { device: { id: number } };
    expect(
      (await api.context.delete(`/api/v2/devices/${device.id}`, { headers: api.headers })).status(),
    ).toBe(204);
    await api.context.dispose();
  });
});
