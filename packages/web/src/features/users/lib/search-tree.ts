import type { UserOption, UserTreeNode } from '@tankportal/shared/schemas/users-lookup';

/** A node of the tree a filter shows: a match, or a user on the path above one. */
export interface SearchTreeNode {
  user: UserOption;
  /** The user matches the filter itself (it is shown bold); otherwise it is only on a path. */
  match: UserTreeNode | null;
  children: SearchTreeNode[];
}

/**
 * The matches of a filter under the paths above them (the filter keeps the path to
 * each match visible): one tree, each ancestor once, in the order the server sorted the matches.
 */
export function searchTree(matches: UserTreeNode[]): SearchTreeNode[] {
  const roots: SearchTreeNode[] = [];
  const byId = new Map<number, SearchTreeNode>();
  const place = (user: UserOption, parent: SearchTreeNode | null): SearchTreeNode => {
    let node = byId.get(user.id);
    if (!node) {
      node = { user: { id: user.id, username: user.username, name: user.name }, match: null, children: [] };
      byId.set(user.id, node);
      (parent ? parent.children : roots).push(node);
    }
    return node;
  };
  for (const match of matches) {
    let parent: SearchTreeNode | null = null;
    for (const ancestor of match.ancestors ?? []) parent = place(ancestor, parent);
    place(match, parent).match = match;
  }
  return roots;
}
