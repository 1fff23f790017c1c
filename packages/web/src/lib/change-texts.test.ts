import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import type { Locale } from '@tankportal/shared/constants';
import type { AuditAction, AuditEntry } from '@tankportal/shared/schemas/audit';
import deBilling from '../locales/de/billing.json';
import deAccess from '../locales/de/device-access.json';
import deChanges from '../locales/de/changes.json';
import deConfig from '../locales/de/device-config.json';
import deMetadata from '../locales/de/device-metadata.json';
import deUsers from '../locales/de/users.json';
import enBilling from '../locales/en/billing.json';
import enAccess from '../locales/en/device-access.json';
import enChanges from '../locales/en/changes.json';
import enConfig from '../locales/en/device-config.json';
import enMetadata from '../locales/en/device-metadata.json';
import enUsers from '../locales/en/users.json';
import { changeEntryTexts } from './change-texts.ts';

const TEXTS = {
  de: {
    billing: deBilling,
    'device-access': deAccess,
    changes: deChanges,
    'device-config': deConfig,
    'device-metadata': deMetadata,
    users: deUsers,
  },
  en: {
    billing: enBilling,
    'device-access': enAccess,
    changes: enChanges,
    'device-config': enConfig,
    'device-metadata': enMetadata,
    users: enUsers,
  },
};

/** The real texts of the areas the tab uses, in one language. */
async function textsIn(locale: Locale) {
  const i18n = i18next.createInstance();
  await i18n.init({
    lng: locale,
    resources: { [locale]: { translation: TEXTS[locale] } },
    interpolation: { escapeValue: false },
  });
  return (entry: AuditEntry) => changeEntryTexts(entry, i18n.t, locale);
}

/** What the server records about a device and its access entries. */
const DEVICE_ACTIONS: AuditAction[] = [
  'update_metadata',
  'update_comment',
  'update_master_comment',
  'update_public_url',
  'update_active',
  'assign',
  'delete',
  'reset_gps',
  'update_configuration',
  'grant',
  'change',
  'revoke',
];

// 28 November 2026, 14:05 local time: the tab writes the time of the browser's zone.
const AT = new Date(2026, 10, 28, 14, 5).toISOString();

const entry = (fields: Partial<AuditEntry>): AuditEntry => ({
  id: 1,
  at: AT,
  user: { id: 3, username: 'user' },
  realUser: null,
  address: '127.0.0.1',
  entityType: 'device',
  entityId: 9,
  action: 'update_metadata',
  changes: {},
  ...fields,
});

describe('an entry of the record of changes', () => {
  it('says when, who, from where and what, each field by its form label with old and new value', async () => {
    const de = await textsIn('de');
    expect(de(entry({ changes: { name: { old: 'Hoftank', new: 'Neuer Hoftank' } } }))).toEqual({
      at: '28.11.2026 14:05',
      author: 'user',
      address: '127.0.0.1',
      action: 'Stammdaten geändert',
      object: { kind: 'Gerät', id: 9, path: '/devices/9' },
      fields: [{ path: 'name', label: 'Gerätename', change: 'Hoftank → Neuer Hoftank' }],
    });
    const en = await textsIn('en');
    expect(en(entry({ changes: { name: { old: 'Hoftank', new: 'Neuer Hoftank' } } }))).toMatchObject({
      at: '11/28/2026 02:05 PM',
      action: 'Base data changed',
      fields: [{ label: 'Device name', change: 'Hoftank → Neuer Hoftank' }],
    });
  });

  it('has words for every action of a device in both languages', async () => {
    for (const locale of ['de', 'en'] as const) {
      const texts = await textsIn(locale);
      for (const action of DEVICE_ACTIONS) expect(texts(entry({ action })).action).not.toBe(action);
    }
    const de = await textsIn('de');
    expect(de(entry({ action: 'update_configuration' })).action).toBe('Konfiguration geändert');
    expect(de(entry({ action: 'grant' })).action).toBe('Zugriff erteilt');
    expect((await textsIn('en'))(entry({ action: 'grant' })).action).toBe('Access granted');
  });

  it('names both users while someone acted as another', async () => {
    const impersonated = entry({ realUser: { id: 2, username: 'admin' } });
    expect((await textsIn('de'))(impersonated).author).toBe('admin als user');
    expect((await textsIn('en'))(impersonated).author).toBe('admin as user');
  });

  it('says only that a secret changed, and shows none as a dash', async () => {
    const de = await textsIn('de');
    const texts = de(
      entry({
        action: 'update_comment',
        address: null,
        changes: { comment: { old: null, new: 'Füllstand prüfen' }, password: { secret: true } },
      }),
    );
    expect(texts.address).toBe('—');
    expect(texts.fields).toEqual([
      { path: 'comment', label: 'Kommentar', change: '— → Füllstand prüfen' },
      { path: 'password', label: 'password', change: 'geändert' },
    ]);
    expect((await textsIn('en'))(entry({ changes: { token: { secret: true } } })).fields[0]!.change).toBe(
      'changed',
    );
  });

  it('names configuration fields, sensor fields and permissions as the forms do, else by their path', async () => {
    const de = await textsIn('de');
    const configuration = de(
      entry({
        action: 'update_configuration',
        changes: {
          valueInterval: { old: 5, new: 10 },
          'sensors.2.capacity': { old: 1000, new: 1500.5 },
          'sensors.1.subType': { old: 'tank', new: 'silo' },
          iotAlarm1Type: { old: 0, new: 2 },
          forceSms: { old: false, new: true },
          'unknown.path': { old: 'a', new: 'b' },
        },
      }),
    );
    expect(configuration.fields.map(({ label, change }) => `${label}: ${change}`)).toEqual([
      'Wertintervall: 5 → 10',
      'Sensor 2: Kapazität: 1000 → 1.500,5',
      'Sensor 1: Art: tank → silo',
      'Alarmeingang 1: Alarmtyp: 0 → 2',
      'Immer per SMS melden: nein → ja',
      'unknown.path: a → b',
    ]);
    const access = de(
      entry({
        entityType: 'device_access',
        action: 'grant',
        changes: { userId: { old: null, new: 12 }, 'permissions.1': { old: null, new: 'VIEW_STATUS' } },
      }),
    );
    expect(access.fields.map(({ label, change }) => `${label}: ${change}`)).toEqual([
      'Benutzer: — → 12',
      'Rechte: — → Status ansehen',
    ]);
  });

  it('names the object of something other than the device in the action, unless a column names it', async () => {
    const recipient = entry({ entityType: 'notification_recipient', entityId: 4, action: 'add' });
    const de = await textsIn('de');
    expect(de(recipient).action).toBe('Benachrichtigungsempfänger: Hinzugefügt');
    expect(de(recipient).object).toEqual({ kind: 'Benachrichtigungsempfänger', id: 4, path: null });
    const i18n = i18next.createInstance();
    await i18n.init({ lng: 'en', resources: { en: { translation: TEXTS.en } } });
    const withColumn = changeEntryTexts(recipient, i18n.t, 'en', { objectColumn: true });
    expect(withColumn.action).toBe('Added');
    expect(withColumn.object).toEqual({ kind: 'Notification recipient', id: 4, path: null });
  });

  it("names a user's fields and values as the account page does", async () => {
    const de = await textsIn('de');
    const user = (changes: AuditEntry['changes']) =>
      de(entry({ entityType: 'user', entityId: 12, action: 'update_login', changes })).fields.map(
        ({ label, change }) => `${label}: ${change}`,
      );
    expect(
      user({
        role: { old: 'ROLE_USER', new: 'ROLE_ADMIN' },
        status: { old: 'ok', new: 'locked' },
        comment: { old: null, new: 'Rückruf' },
        'contact.email': { old: 'a@example.org', new: 'b@example.org' },
        lastName: { old: 'Meier', new: 'Meyer' },
        'address.city': { old: 'Kiel', new: 'Ulm' },
      }),
    ).toEqual([
      'Rolle: Benutzer → Admin',
      'Status: aktiv → gesperrt',
      'Kommentar: — → Rückruf',
      'E-Mail: a@example.org → b@example.org',
      'Nachname: Meier → Meyer',
      'address.city: Kiel → Ulm',
    ]);
  });
});
