import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, ne } from 'drizzle-orm';
import { generateSync } from 'otplib';
import type { AuditAction } from '@tankportal/shared/schemas/audit';
import type { SecondFactorEnrolment, SecondFactorStatus } from '@tankportal/shared/schemas/second-factor';
import { auditEntries, loginHistory, secondFactors, users } from '../../../db/schema.ts';
import { hashPassword } from '../../../policies/passwords.ts';
import { buildUser } from '../../../testing/factories.ts';
import { createTestApp, TestClient, type TestApp } from '../../../testing/test-app.ts';
import type { Role } from '@tankportal/shared/roles';

const MAX_FAILURES_PER_USERNAME = 6;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    LOGIN_MAX_FAILURES_PER_USERNAME: String(MAX_FAILURES_PER_USERNAME),
    LOGIN_MAX_FAILURES_PER_IP: '1000',
  });
});
afterAll(() => t.close());

/** The authenticator app: the code of the time step `steps` after the present one. */
const codeOf = (secret: string, steps = 0) =>
  generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

const newUser = (role: Role = 'ROLE_USER') => buildUser(t.database.db, { role });

/** A browser at the login page: it holds an anti-forgery token, no session. */
async function visitor() {
  const client = new TestClient(t.app);
  await client.get('/api/v2/whitelabels/current');
  return client;
}

const signedIn = async (client: TestClient) => (await client.get('/api/v2/users/me')).statusCode === 200;

/** Enrols a TOTP factor for a signed-in client; answers the secret and the recovery codes. */
async function enrol(client: TestClient) {
  const begun = await client.post('/api/v2/users/me/second-factor');
  expect(begun.statusCode).toBe(200);
  const { secret } = begun.json<SecondFactorEnrolment>();
  const confirmed = await client.post('/api/v2/users/me/second-factor/confirmation', {
    code: codeOf(secret),
  });
  expect(confirmed.statusCode).toBe(200);
  return { secret, recoveryCodes: confirmed.json<{ recoveryCodes: string[] }>().recoveryCodes };
}

/** A user with an active factor; the step the enrolment used is spent, so later codes are the next steps. */
async function userWithFactor(role: Role = 'ROLE_USER') {
  const user = await newUser(role);
  const { secret, recoveryCodes } = await enrol(await t.signIn(user.username));
  return { user, secret, recoveryCodes };
}

/** The user's factor accepts any current code again (each test signs in once per time step). */
const forgetUsedStep = (userId: number) =>
  t.database.db.update(secondFactors).set({ lastTimeStep: null }).where(eq(secondFactors.userId, userId));

/** The changes of a user's factors on its record (its sign-ins with a factor are checked apart). */
const recordedActions = async (userId: number): Promise<AuditAction[]> =>
  (
    await t.database.db
      .select({ action: auditEntries.action })
      .from(auditEntries)
      .where(
        and(
          eq(auditEntries.subjectUserId, userId),
          eq(auditEntries.entityType, 'user'),
          ne(auditEntries.action, 'sign_in_second_factor'),
        ),
      )
      .orderBy(auditEntries.id)
  ).map((entry) => entry.action);

describe('enrolling a TOTP factor', () => {
  it('shows the secret as text and QR code, and activates it only with a right first code', async () => {
    const user = await newUser();
    const client = await t.signIn(user.username);
    const elsewhere = await t.signIn(user.username);
    const begun = await client.post('/api/v2/users/me/second-factor');
    expect(begun.statusCode).toBe(200);
    const enrolment = begun.json<SecondFactorEnrolment>();
    expect(enrolment.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(enrolment.uri).toBe(
      `otpauth://totp/Tank%20Portal:${user.username}?secret=${enrolment.secret}&issuer=Tank%20Portal`,
    );
    expect(enrolment.qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    expect((await client.get('/api/v2/users/me/second-factor')).json()).toEqual({
      active: false,
      recoveryCodesLeft: 0,
      required: false,
    });

    const wrong = await client.post('/api/v2/users/me/second-factor/confirmation', { code: '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fieldErrors).toEqual([{ path: 'code', code: 'invalid', args: {} }]);
    // Not active yet: the password alone still signs in.
    expect(
      (await (await visitor()).post('/api/v2/login', { username: user.username, password: 'tankportal' }))
        .statusCode,
    ).toBe(200);

    const confirmed = await client.post('/api/v2/users/me/second-factor/confirmation', {
      code: codeOf(enrolment.secret),
    });
    expect(confirmed.statusCode).toBe(200);
    const { recoveryCodes } = confirmed.json<{ recoveryCodes: string[] }>();
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    expect(recoveryCodes[0]).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    expect((await client.get('/api/v2/users/me/second-factor')).json<SecondFactorStatus>()).toMatchObject({
      active: true,
      recoveryCodesLeft: 10,
    });
    // A change of the factor ends the user's other sessions.
    expect(await signedIn(client)).toBe(true);
    expect(await signedIn(elsewhere)).toBe(false);
    // A second enrolment while one is active is refused.
    expect((await client.post('/api/v2/users/me/second-factor')).statusCode).toBe(409);

    const [entry] = await t.database.db
      .select()
      .from(auditEntries)
      .where(and(eq(auditEntries.subjectUserId, user.id), eq(auditEntries.action, 'enable_second_factor')));
    expect(entry.changes).toEqual({ secondFactor: { old: false, new: true } });
    expect(JSON.stringify(entry)).not.toContain(enrolment.secret);
  });

  it('is refused to demo accounts', async () => {
    const demo = await t.signIn('demo');
    expect((await demo.post('/api/v2/users/me/second-factor')).statusCode).toBe(403);
    expect((await demo.get('/api/v2/users/me/second-factor')).statusCode).toBe(403);
  });

  it('is switched off with the password or a current code, not with a wrong one', async () => {
    const { user, secret } = await userWithFactor();
    const client = await visitor();
    await client.post('/api/v2/login', { username: user.username, password: 'tankportal' });
    await client.post('/api/v2/login/second-factor', { code: codeOf(secret, 1) });
    const off = (body: object) => client.request('DELETE', '/api/v2/users/me/second-factor', body);
    expect((await off({ password: 'wrong-password' })).statusCode).toBe(400);
    expect((await off({ code: '123456' })).statusCode).toBe(400);
    expect((await off({ password: 'tankportal' })).statusCode).toBe(204);
    expect(await recordedActions(user.id)).toEqual(['enable_second_factor', 'disable_second_factor']);
    const again = await (
      await visitor()
    ).post('/api/v2/login', { username: user.username, password: 'tankportal' });
    expect(again.statusCode).toBe(200);
  });
});

describe('signing in with a second factor', () => {
  it('answers 202 without a session after the password, and signs in with the code', async () => {
    const { user, secret } = await userWithFactor();
    const client = await visitor();
    const password = await client.post('/api/v2/login', { username: user.username, password: 'tankportal' });
    expect(password.statusCode).toBe(202);
    expect(password.json()).toEqual({ secondFactorRequired: true, code: true, passkey: false });
    expect(client.cookies.has('tp_session')).toBe(false);
    expect(await signedIn(client)).toBe(false);

    const wrong = await client.post('/api/v2/login/second-factor', { code: '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(await signedIn(client)).toBe(false);

    const right = await client.post('/api/v2/login/second-factor', { code: codeOf(secret, 1) });
    expect(right.statusCode).toBe(200);
    expect(right.json()).toMatchObject({ username: user.username, secondFactorEnrolmentRequired: false });
    expect(await signedIn(client)).toBe(true);
    const history = await t.database.db
      .select({ result: loginHistory.result })
      .from(loginHistory)
      .where(eq(loginHistory.userId, user.id))
      .orderBy(desc(loginHistory.id));
    // The enrolment's own sign-in, the wrong code, the success.
    expect(history.map((entry) => entry.result)).toEqual(['success', 'invalidCredentials', 'success']);
    // The sign-in with the factor is on the user's record of changes; the wrong code is not.
    const recorded = await t.database.db
      .select({ action: auditEntries.action, username: auditEntries.username })
      .from(auditEntries)
      .where(and(eq(auditEntries.subjectUserId, user.id), eq(auditEntries.action, 'sign_in_second_factor')));
    expect(recorded).toEqual([{ action: 'sign_in_second_factor', username: user.username }]);
  });

  it('accepts a code once, and the pending step once', async () => {
    const { user, secret } = await userWithFactor();
    const client = await visitor();
    await client.post('/api/v2/login', { username: user.username, password: 'tankportal' });
    const step = client.cookies.get('tp_sign_in_step')!;
    const code = codeOf(secret, 1);
    expect((await client.post('/api/v2/login/second-factor', { code })).statusCode).toBe(200);

    // The same step again (a copied cookie) is over.
    const copy = await visitor();
    copy.cookies.set('tp_sign_in_step', step);
    expect((await copy.post('/api/v2/login/second-factor', { code })).statusCode).toBe(401);
    // The same code with a new step is refused: it was seen once.
    const replay = await visitor();
    await replay.post('/api/v2/login', { username: user.username, password: 'tankportal' });
    expect((await replay.post('/api/v2/login/second-factor', { code })).statusCode).toBe(400);
  });

  it('needs the password step first', async () => {
    const client = await visitor();
    expect((await client.post('/api/v2/login/second-factor', { code: '123456' })).statusCode).toBe(401);
  });

  it('takes a recovery code once, and records its use', async () => {
    const { user, recoveryCodes } = await userWithFactor();
    const client = await visitor();
    await client.post('/api/v2/login', { username: user.username, password: 'tankportal' });
    // Typed in lower case without dashes, as people do.
    const typed = recoveryCodes[3].toLowerCase().replaceAll('-', '');
    expect((await client.post('/api/v2/login/second-factor', { code: typed })).statusCode).toBe(200);
    expect((await client.get('/api/v2/users/me/second-factor')).json()).toMatchObject({
      recoveryCodesLeft: 9,
    });
    expect(await recordedActions(user.id)).toEqual(['enable_second_factor', 'use_recovery_code']);

    const again = await visitor();
    await again.post('/api/v2/login', { username: user.username, password: 'tankportal' });
    expect((await again.post('/api/v2/login/second-factor', { code: recoveryCodes[3] })).statusCode).toBe(
      400,
    );
    expect((await again.post('/api/v2/login/second-factor', { code: recoveryCodes[4] })).statusCode).toBe(
      200,
    );
  });

  it('limits wrong codes like wrong passwords', async () => {
    const { user, secret } = await userWithFactor();
    const client = await visitor();
    // The password's attempt counts until the code is right: 1 + 5 wrong codes use the 6 attempts.
    expect(
      (await client.post('/api/v2/login', { username: user.username, password: 'tankportal' })).statusCode,
    ).toBe(202);
    for (let i = 0; i < MAX_FAILURES_PER_USERNAME - 1; i++)
      expect((await client.post('/api/v2/login/second-factor', { code: '000000' })).statusCode).toBe(400);
    const limited = await client.post('/api/v2/login/second-factor', { code: codeOf(secret, 1) });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect(await signedIn(client)).toBe(false);
  });

  it('remembers a browser for 30 days until the password changes', async () => {
    const { user, secret } = await userWithFactor();
    const client = await visitor();
    await client.post('/api/v2/login', { username: user.username, password: 'tankportal' });
    const right = await client.post('/api/v2/login/second-factor', {
      code: codeOf(secret, 1),
      rememberBrowser: true,
    });
    expect(right.statusCode).toBe(200);
    const remembered = right.cookies.find((cookie) => cookie.name === 'tp_remembered_browser');
    expect(remembered).toMatchObject({ httpOnly: true, path: '/api/v2/login', maxAge: 30 * 86_400 });

    await client.post('/api/v2/logout');
    expect(
      (await client.post('/api/v2/login', { username: user.username, password: 'tankportal' })).statusCode,
    ).toBe(200);
    // Another user in the same browser is still asked.
    const other = await userWithFactor();
    expect(
      (await client.post('/api/v2/login', { username: other.user.username, password: 'tankportal' }))
        .statusCode,
    ).toBe(202);

    // A new password (here the same one hashed anew) ends what the browser was remembered for.
    const passwordHash = await hashPassword('tankportal');
    await t.database.db.update(users).set({ passwordHash }).where(eq(users.id, user.id));
    expect(
      (await client.post('/api/v2/login', { username: user.username, password: 'tankportal' })).statusCode,
    ).toBe(202);
  });
});

describe("a master and the white-label's policy", () => {
  it('leads an admin without a factor to enrol before anything else, once the master requires it', async () => {
    const master = await t.signIn('master');
    const admin = await newUser('ROLE_ADMIN');
    const plainUser = await newUser('ROLE_USER');
    expect(
      (
        await (
          await t.signIn('admin')
        ).put('/api/v2/whitelabels/current/second-factor-policy', { requiredFromAdmin: true })
      ).statusCode,
    ).toBe(403);
    const set = await master.put('/api/v2/whitelabels/current/second-factor-policy', {
      requiredFromAdmin: true,
    });
    expect(set.statusCode).toBe(200);
    try {
      expect((await master.get('/api/v2/whitelabels/current/second-factor-policy')).json()).toEqual({
        requiredFromAdmin: true,
      });
      const client = await visitor();
      const login = await client.post('/api/v2/login', { username: admin.username, password: 'tankportal' });
      expect(login.statusCode).toBe(200);
      expect(login.json()).toMatchObject({ secondFactorEnrolmentRequired: true });
      expect((await client.get('/api/v2/devices')).statusCode).toBe(403);
      expect((await client.get('/api/v2/users/me?_impersonate_user=user')).statusCode).toBe(403);
      expect((await client.get('/api/v2/users/me/second-factor')).json()).toMatchObject({
        active: false,
        required: true,
      });
      // A user below admin is not held.
      const below = await t.signIn(plainUser.username);
      expect((await below.get('/api/v2/users/me')).json()).toMatchObject({
        secondFactorEnrolmentRequired: false,
      });

      await enrol(client);
      expect((await client.get('/api/v2/users/me')).json()).toMatchObject({
        secondFactorEnrolmentRequired: false,
      });
      expect((await client.get('/api/v2/devices')).statusCode).toBe(200);
    } finally {
      await master.put('/api/v2/whitelabels/current/second-factor-policy', { requiredFromAdmin: false });
    }
    const [policyEntry] = await t.database.db
      .select()
      .from(auditEntries)
      .where(eq(auditEntries.action, 'update_second_factor_policy'))
      .orderBy(auditEntries.id);
    expect(policyEntry.changes).toEqual({ secondFactorRequired: { old: false, new: true } });
  });

  it("resets a user's factor: the user's sessions end and the password alone signs in again", async () => {
    const { user, secret } = await userWithFactor();
    await forgetUsedStep(user.id);
    const userBrowser = await visitor();
    await userBrowser.post('/api/v2/login', { username: user.username, password: 'tankportal' });
    await userBrowser.post('/api/v2/login/second-factor', { code: codeOf(secret) });
    expect(await signedIn(userBrowser)).toBe(true);

    const admin = await t.signIn('admin');
    expect((await admin.delete(`/api/v2/users/${user.id}/second-factor`)).statusCode).toBe(403);
    const master = await t.signIn('master');
    expect((await master.delete(`/api/v2/users/${user.id}/second-factor`)).statusCode).toBe(204);
    expect((await master.delete('/api/v2/users/999999/second-factor')).statusCode).toBe(404);
    expect(await signedIn(userBrowser)).toBe(false);
    expect(await recordedActions(user.id)).toEqual(['enable_second_factor', 'reset_second_factor']);
    const login = await (
      await visitor()
    ).post('/api/v2/login', { username: user.username, password: 'tankportal' });
    expect(login.statusCode).toBe(200);
  });
});
