import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../testing/test-app.ts';
import { buildUser } from '../testing/factories.ts';
import { type UserRow, users } from '../db/schema.ts';

import {
  ancestorIds,
  checkManagedUsers,
  isInSubtree,
  MAX_TREE_DEPTH,
  subtreeIds,
  userManagedBy,
  type TreeWalk,
} from './user-tree.ts';

let t: TestApp;
const u: Record<string, UserRow> = {};
/** A chain of users one below the other, longer than a walk goes. */
const chain: UserRow[] = [];
const NOBODY = 2_147_483_647;

/*
 * Below the demo accounts (master > admin > user > demo):
 *   admin > tree-a > tree-a1 > tree-a1x (deleted) > tree-a1x1
 *                  > tree-a2 (locked)
 *   master > tree-other-admin > tree-other
 *   master > tree-chain-0 > tree-chain-1 > … (MAX_TREE_DEPTH + 2 levels)
 *   tree-loop-1 <> tree-loop-2 (each the other's parent)
 */
beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const build = async (username: string, parent: string, role: UserRow['role'] = 'ROLE_USER') =>
    (u[username] = await buildUser(db, { username, parent, role }));
  await build('tree-a', 'admin');
  await build('tree-a1', 'tree-a');
  await build('tree-a1x', 'tree-a1');
  await build('tree-a1x1', 'tree-a1x');
  await build('tree-a2', 'tree-a');
  await build('tree-other-admin', 'master', 'ROLE_ADMIN');
  await build('tree-other', 'tree-other-admin');
  await db.update(users).set({ status: 'deleted' }).where(eq(users.id, u['tree-a1x'].id));
  await db.update(users).set({ status: 'locked' }).where(eq(users.id, u['tree-a2'].id));
  let parent = 'master';
  for (let depth = 0; depth < MAX_TREE_DEPTH + 2; depth++) {
    chain.push(await build(`tree-chain-${depth}`, parent));
    parent = `tree-chain-${depth}`;
  }
  await build('tree-loop-1', 'user');
  await build('tree-loop-2', 'tree-loop-1');
  await db.update(users).set({ parentUserId: u['tree-loop-2'].id }).where(eq(users.id, u['tree-loop-1'].id));
  for (const row of await db
    .select()
    .from(users)
    .where(inArray(users.username, ['master', 'admin', 'user', 'demo'])))
    u[row.username] = row;
});
afterAll(() => t.close());

const idsOf = (...usernames: string[]) => usernames.map((username) => u[username].id);

/** The usernames a select of ids answers, sorted, each once. */
async function usernamesOf(select: SQL): Promise<string[]> {
  const result = await t.database.db.execute<{ username: string }>(
    sql`SELECT DISTINCT username FROM ${users} WHERE id IN (${select}) ORDER BY username`,
  );
  return result.rows.map((row) => row.username);
}

const all: TreeWalk = { self: 'include', deleted: 'include' };

describe('subtreeIds', () => {
  it('answers every user below the root, through and with deleted users, the root as asked', async () => {
    expect(await usernamesOf(subtreeIds(u['tree-a'].id, all))).toEqual([
      'tree-a',
      'tree-a1',
      'tree-a1x',
      'tree-a1x1',
      'tree-a2',
    ]);
    expect(await usernamesOf(subtreeIds(u['tree-a'].id, { ...all, self: 'exclude' }))).toEqual([
      'tree-a1',
      'tree-a1x',
      'tree-a1x1',
      'tree-a2',
    ]);
  });

  it('leaves deleted users out when asked, but not the users below them', async () => {
    expect(await usernamesOf(subtreeIds(u['tree-a'].id, { self: 'include', deleted: 'exclude' }))).toEqual([
      'tree-a',
      'tree-a1',
      'tree-a1x1',
      'tree-a2',
    ]);
    expect(await usernamesOf(subtreeIds(u['tree-a1x'].id, { self: 'include', deleted: 'exclude' }))).toEqual([
      'tree-a1x1',
    ]);
  });

  it('of a leaf is the leaf itself or nothing; of nobody, nothing that exists', async () => {
    expect(await usernamesOf(subtreeIds(u['tree-a1x1'].id, all))).toEqual(['tree-a1x1']);
    expect(await usernamesOf(subtreeIds(u['tree-a1x1'].id, { ...all, self: 'exclude' }))).toEqual([]);
    expect(await usernamesOf(subtreeIds(NOBODY, all))).toEqual([]);
  });

  it('goes MAX_TREE_DEPTH levels down a deep tree and no further', async () => {
    const below = await usernamesOf(subtreeIds(chain[0].id, all));
    expect(below).toHaveLength(MAX_TREE_DEPTH + 1);
    expect(below).toContain(`tree-chain-${MAX_TREE_DEPTH}`);
    expect(below).not.toContain(`tree-chain-${MAX_TREE_DEPTH + 1}`);
    // The demo tree's users are all far closer to the master than the limit.
    expect(await usernamesOf(subtreeIds(u.master.id, all))).toEqual(
      expect.arrayContaining(['admin', 'user', 'demo', 'tree-a1x1', 'tree-other']),
    );
    // The cycle hangs below nobody any more.
    expect(await usernamesOf(subtreeIds(u.master.id, all))).not.toContain('tree-loop-1');
  });

  it('ends in a cycle of parents', async () => {
    expect(await usernamesOf(subtreeIds(u['tree-loop-1'].id, all))).toEqual(['tree-loop-1', 'tree-loop-2']);
  });
});

describe('ancestorIds', () => {
  it('answers the parent, its parent and so on up to the root, the user itself as asked', async () => {
    expect(await usernamesOf(ancestorIds(u['tree-a1x1'].id, { ...all, self: 'exclude' }))).toEqual([
      'admin',
      'master',
      'tree-a',
      'tree-a1',
      'tree-a1x',
    ]);
    expect(
      await usernamesOf(ancestorIds(u['tree-a1x1'].id, { self: 'include', deleted: 'exclude' })),
    ).toEqual(['admin', 'master', 'tree-a', 'tree-a1', 'tree-a1x1']);
    expect(await usernamesOf(ancestorIds(u.master.id, { ...all, self: 'exclude' }))).toEqual([]);
    expect(await usernamesOf(ancestorIds(NOBODY, all))).toEqual([]);
  });

  it('goes MAX_TREE_DEPTH levels up and ends in a cycle', async () => {
    const above = await usernamesOf(ancestorIds(chain.at(-1)!.id, { ...all, self: 'exclude' }));
    expect(above).toHaveLength(MAX_TREE_DEPTH);
    expect(above).not.toContain('tree-chain-0');
    expect(above).not.toContain('master');
    expect(await usernamesOf(ancestorIds(u['tree-loop-2'].id, all))).toEqual(['tree-loop-1', 'tree-loop-2']);
  });
});

describe('isInSubtree', () => {
  it('is strict ancestry: below at any depth, through deleted users, never the user itself', async () => {
    const db = t.database.db;
    expect(await isInSubtree(db, u.admin.id, u['tree-a1x1'].id)).toBe(true);
    expect(await isInSubtree(db, u['tree-a1'].id, u['tree-a1x'].id)).toBe(true);
    expect(await isInSubtree(db, u.master.id, u['tree-other'].id)).toBe(true);
    expect(await isInSubtree(db, u['tree-a'].id, u['tree-a'].id)).toBe(false);
    expect(await isInSubtree(db, u['tree-a1x1'].id, u['tree-a'].id)).toBe(false);
    expect(await isInSubtree(db, u.admin.id, u['tree-other'].id)).toBe(false);
    expect(await isInSubtree(db, u['tree-a2'].id, u['tree-a1'].id)).toBe(false);
    expect(await isInSubtree(db, u.admin.id, NOBODY)).toBe(false);
    expect(await isInSubtree(db, chain[0].id, chain[MAX_TREE_DEPTH].id)).toBe(true);
    expect(await isInSubtree(db, chain[0].id, chain[MAX_TREE_DEPTH + 1].id)).toBe(false);
    // In a cycle a user is its own ancestor; impersonation refuses oneself before asking.
    expect(await isInSubtree(db, u['tree-loop-1'].id, u['tree-loop-1'].id)).toBe(true);
  });
});

describe('checkManagedUsers', () => {
  const candidates = () => [
    ...idsOf('master', 'admin', 'user', 'demo', 'tree-a', 'tree-a1', 'tree-a1x', 'tree-a1x1', 'tree-a2'),
    ...idsOf('tree-other-admin', 'tree-other'),
    NOBODY,
  ];

  it('gives a master everybody asked for who is not deleted, and no id of nobody', async () => {
    const allowed = await checkManagedUsers(t.database.db, u.master, candidates());
    expect(allowed).toEqual(
      new Set(
        idsOf(
          'master',
          'admin',
          'user',
          'demo',
          'tree-a',
          'tree-a1',
          'tree-a1x1',
          'tree-a2',
          'tree-other-admin',
          'tree-other',
        ),
      ),
    );
  });

  it('gives an admin itself and its subtree without deleted users, not another admin’s users', async () => {
    const allowed = await checkManagedUsers(t.database.db, u.admin, candidates());
    expect(allowed).toEqual(
      new Set(idsOf('admin', 'user', 'demo', 'tree-a', 'tree-a1', 'tree-a1x1', 'tree-a2')),
    );
  });

  it('gives a plain user its sub-users too, nobody above or beside it', async () => {
    expect(await checkManagedUsers(t.database.db, u['tree-a'], candidates())).toEqual(
      new Set(idsOf('tree-a', 'tree-a1', 'tree-a1x1', 'tree-a2')),
    );
    expect(await checkManagedUsers(t.database.db, u['tree-a1x1'], candidates())).toEqual(
      new Set(idsOf('tree-a1x1')),
    );
  });

  it('answers only ids it was asked about; none, repeated or impossible ids cost nothing', async () => {
    const db = t.database.db;
    expect(await checkManagedUsers(db, u.admin, [])).toEqual(new Set());
    expect(await checkManagedUsers(db, u.admin, idsOf('tree-a1', 'tree-a1', 'tree-other'))).toEqual(
      new Set(idsOf('tree-a1')),
    );
    expect(await checkManagedUsers(db, u.master, [0, -1, 1.5, 2 ** 31, NOBODY])).toEqual(new Set());
  });

  it('goes as deep as the subtree walk', async () => {
    const allowed = await checkManagedUsers(
      t.database.db,
      chain[0],
      chain.map((row) => row.id),
    );
    expect(allowed.size).toBe(MAX_TREE_DEPTH + 1);
    expect(allowed.has(chain.at(-1)!.id)).toBe(false);
  });

  it('agrees with userManagedBy one id at a time', async () => {
    for (const actor of [u.master, u.admin, u['tree-a'], u.demo]) {
      const allowed = await checkManagedUsers(t.database.db, actor, candidates());
      for (const id of candidates())
        expect(await userManagedBy(t.database.db, actor, id)).toBe(allowed.has(id));
    }
  });
});
