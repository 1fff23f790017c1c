import { eq } from 'drizzle-orm';
import type { Role } from '@tankportal/shared/roles';
import type { InvoiceSeller } from '@tankportal/shared/schemas/billing';
import type { Db } from '../db/client.ts';
import { systemNotifications, users, whitelabelConfig, whitelabels } from '../db/schema.ts';
import { hashPassword } from '../policies/passwords.ts';
import { findUserByUsername } from '../repositories/users.ts';

export const DEMO_PASSWORD = 'tankportal';

/** The demo tree: master > admin > user > demo (README "Demo accounts"). */
const DEMO_USERS: {
  username: string;
  role: Role;
  parent: string | null;
  firstName: string;
  lastName: string;
  company: string | null;
}[] = [
  {
    username: 'master',
    role: 'ROLE_MASTER',
    parent: null,
    firstName: 'Maria',
    lastName: 'Master',
    company: 'Tank Portal',
  },
  {
    username: 'admin',
    role: 'ROLE_ADMIN',
    parent: 'master',
    firstName: 'Anton',
    lastName: 'Admin',
    company: 'Heizöl Beispiel GmbH',
  },
  {
    username: 'user',
    role: 'ROLE_USER',
    parent: 'admin',
    firstName: 'Ulla',
    lastName: 'User',
    company: 'Autohaus Muster KG',
  },
  {
    username: 'demo',
    role: 'ROLE_DEMO',
    parent: 'user',
    firstName: 'Demo',
    lastName: 'Zugang',
    company: null,
  },
];

/** The demo operator on the demo invoices (a fictitious company; the IBAN is the standard example). */
export const DEMO_INVOICE_SELLER: InvoiceSeller = {
  name: 'Tank Portal Demo GmbH',
  street: 'Musterstraße 1',
  postalCode: '10115',
  city: 'Berlin',
  countryCode: 'DE',
  vatId: 'DE123456789',
  taxNumber: '',
  register: 'Amtsgericht Berlin-Charlottenburg HRB 000000',
  managingDirectors: 'Erika Mustermann',
  contactName: 'Erika Mustermann',
  phone: '+49 30 0000000',
  email: 'rechnung@example.com',
  iban: 'DE89370400440532013000',
  bic: 'COBADEFFXXX',
  bankName: 'Demo Bank',
  paymentDays: 14,
};

/** Demo accounts, the demo white-label's settings and a welcome notice. Idempotent. */
export async function ensureDemoData(db: Db): Promise<string[]> {
  if (await findUserByUsername(db, 'master')) return [];
  const [whitelabel] = await db.select().from(whitelabels).where(eq(whitelabels.isDefault, true));
  await db
    .update(whitelabels)
    .set({
      announcement: {
        de: 'Willkommen im Demo-Portal: Anmeldung als master, admin, user oder demo mit dem Passwort „tankportal“.',
        en: 'Welcome to the demo portal: sign in as master, admin, user or demo with the password "tankportal".',
      },
      oilPriceLinks: [
        { label: 'Heizölpreise / heating oil prices', url: 'https://www.heizoel24.de/heizoelpreise' },
      ],
      invoiceSeller: DEMO_INVOICE_SELLER,
    })
    .where(eq(whitelabels.id, whitelabel.id));
  await db
    .insert(whitelabelConfig)
    .values([
      { whitelabelId: whitelabel.id, key: 'ui.devices.sort.by', value: 'id' },
      { whitelabelId: whitelabel.id, key: 'ui.devices.sort.desc', value: false },
      { whitelabelId: whitelabel.id, key: 'ui.devices.groupByUser', value: false },
    ])
    .onConflictDoNothing();

  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const ids = new Map<string, number>();
  for (const demo of DEMO_USERS) {
    const [row] = await db
      .insert(users)
      .values({
        username: demo.username,
        role: demo.role,
        passwordHash,
        whitelabelId: whitelabel.id,
        parentUserId: demo.parent ? ids.get(demo.parent) : null,
        firstName: demo.firstName,
        lastName: demo.lastName,
        company: demo.company,
      })
      .returning({ id: users.id });
    ids.set(demo.username, row.id);
  }
  await db.insert(systemNotifications).values({
    severity: 'info',
    message:
      'Demo-Daten: Änderungen können jederzeit zurückgesetzt werden.\nDemo data: changes may be reset at any time.',
  });
  return DEMO_USERS.map((user) => user.username);
}
