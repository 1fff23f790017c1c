import { keepPreviousData, skipToken, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { UserTreeNode } from '@tankportal/shared/schemas/users-lookup';
import { fetchPage } from '../../../lib/api/paged.ts';
import { userKeys } from '../../../lib/api/users.ts';

/** Users of one level per request: enough for a screen and more, small enough to draw at once. */
export const TREE_PAGE_SIZE = 200;
/** Matches shown for a filter; the page says when there are more. */
export const SEARCH_PAGE_SIZE = 100;

const treeKeys = {
  level: (parentUserId: number | null) => [...userKeys.tree(), 'level', parentUserId] as const,
  search: (term: string) => [...userKeys.tree(), 'search', term] as const,
};

/**
 * One level of the users tree (decision 038): the children of `parentUserId`, or the top the
 * signed-in user sees for null, page by page as the user asks for more.
 */
export function useTreeLevel(parentUserId: number | null) {
  return useInfiniteQuery({
    queryKey: treeKeys.level(parentUserId),
    queryFn: ({ pageParam, signal }) =>
      fetchPage<UserTreeNode>(
        '/v2/users',
        { view: 'tree', parentUserId: parentUserId ?? undefined, page: pageParam, perPage: TREE_PAGE_SIZE },
        signal,
      ),
    initialPageParam: 1,
    getNextPageParam: (last, pages) =>
      pages.reduce((sum, page) => sum + page.items.length, 0) < last.total ? pages.length + 1 : undefined,
  });
}

/** The users matching a term, each with the path above it; the previous answer stays while typing. */
export function useTreeSearch(term: string) {
  return useQuery({
    queryKey: treeKeys.search(term),
    queryFn: term
      ? ({ signal }) =>
          fetchPage<UserTreeNode>(
            '/v2/users',
            { view: 'tree', searchTerm: term, perPage: SEARCH_PAGE_SIZE },
            signal,
          )
      : skipToken,
    placeholderData: keepPreviousData,
  });
}
