// Production bootstrap: `npm run create-master -- USERNAME` creates the first master user.
// The password is read from CREATE_MASTER_PASSWORD or generated and printed once.
import { randomBytes } from 'node:crypto';
import { readConfig } from '../config/env.ts';
import { openDatabase } from '../db/client.ts';
import { users, whitelabels } from '../db/schema.ts';
import { eq } from 'drizzle-orm';
import {
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
} from '@tankportal/shared/constants';
import { hashPassword, passwordWeakness } from '../policies/passwords.ts';
import { findUserByUsername } from '../repositories/users.ts';
import { ensureBaseData } from '../seed/base-data.ts';

const username = process.argv[2];
if (!username || username.length < USERNAME_MIN_LENGTH || username.length > USERNAME_MAX_LENGTH) {
  console.error(
    `Usage: npm run create-master -- USERNAME   (${USERNAME_MIN_LENGTH} to ${USERNAME_MAX_LENGTH} characters)`,
  );
  process.exit(2);
}
const password = process.env.CREATE_MASTER_PASSWORD || randomBytes(12).toString('base64url');
if (password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH) {
  console.error(
    `CREATE_MASTER_PASSWORD must have ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters.`,
  );
  process.exit(2);
}
// The same rule as a password change (a generated password always passes).
const weakness = passwordWeakness(password, username);
if (weakness) {
  const why = weakness === 'passwordHasUsername' ? 'contains the username' : 'is too easy to guess';
  console.error(`CREATE_MASTER_PASSWORD ${why}: choose a longer, less common one (or leave it unset).`);
  process.exit(2);
}

const config = readConfig();
const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
try {
  await ensureBaseData(database.db);
  if (await findUserByUsername(database.db, username)) {
    console.error(`A user named "${username}" already exists.`);
    process.exitCode = 1;
  } else {
    const [whitelabel] = await database.db.select().from(whitelabels).where(eq(whitelabels.isDefault, true));
    await database.db.insert(users).values({
      username,
      role: 'ROLE_MASTER',
      passwordHash: await hashPassword(password),
      whitelabelId: whitelabel.id,
    });
    console.log(`Master user "${username}" created.`);
    if (!process.env.CREATE_MASTER_PASSWORD) console.log(`Password (shown once): ${password}`);
  }
} finally {
  await database.close();
}
