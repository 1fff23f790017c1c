import { describe, expect, it } from 'vitest';
import type { UserTreeNode } from '@tankportal/shared/schemas/users-lookup';
import { searchTree, type SearchTreeNode } from './search-tree.ts';

const user = (id: number, username: string) => ({ id, username, name: '' });
const match = (id: number, username: string, ancestors: ReturnType<typeof user>[]): UserTreeNode => ({
  ...user(id, username),
  parentUserId: ancestors.at(-1)?.id ?? null,
  role: 'ROLE_USER',
  status: 'ok',
  childCount: 0,
  ancestors,
});
const shape = (nodes: SearchTreeNode[]): unknown[] =>
  nodes.map((node) => [node.user.username, node.match ? 'match' : 'path', shape(node.children)]);

describe('searchTree', () => {
  it('puts every match under its path, each ancestor once, in the order of the matches', () => {
    const admin = user(2, 'admin');
    const meier = user(5, 'meier');
    const tree = searchTree([
      match(7, 'meier-keller', [admin, meier]),
      match(5, 'meier', [admin]),
      match(9, 'meier-hof', [admin, meier]),
      match(3, 'other', []),
    ]);
    expect(shape(tree)).toEqual([
      [
        'admin',
        'path',
        [
          [
            'meier',
            'match',
            [
              ['meier-keller', 'match', []],
              ['meier-hof', 'match', []],
            ],
          ],
        ],
      ],
      ['other', 'match', []],
    ]);
  });

  it('is empty without matches', () => {
    expect(searchTree([])).toEqual([]);
  });
});
