import type { UserOption } from '@tankportal/shared/schemas/users-lookup';
import { api } from '../api-client.ts';

/**
 * The query keys of everything about users, in one place: a key is a prefix of the keys below it,
 * so invalidating by `userKeys.all` reaches them all.
 */
export const userKeys = {
  all: ['users'] as const,
  /** The signed-in user (lib/session.ts). */
  me: () => [...userKeys.all, 'me'] as const,
  picker: (filter: unknown) => [...userKeys.all, 'picker', filter] as const,
  /** The users tree: its levels and searches. */
  tree: () => [...userKeys.all, 'tree'] as const,
  /** One user of the users area: its detail and login history. */
  one: (userId: number) => [...userKeys.all, 'one', userId] as const,
  /** One page of the user's changes tab: refreshed with the user after each save. */
  changes: (userId: number, page: number) => [...userKeys.one(userId), 'changes', page] as const,
  /** The devices users may access (their access pages), changed by any access entry. */
  deviceAccess: () => [...userKeys.all, 'device-access'] as const,
};

/** The user picker's search apart from the typed term. */
export interface UserPickerFilter {
  perPage: number;
  /** Ids not to offer, comma-separated. */
  exclude?: string;
  /** Not to offer this user nor anybody below it. */
  outsideSubtreeOf?: number;
}

/** `GET /v2/users`: the users the signed-in user manages that match the term. */
export function searchPickerUsers(
  filter: UserPickerFilter,
  searchTerm: string | undefined,
  signal: AbortSignal,
): Promise<UserOption[]> {
  return api<UserOption[]>('GET', '/v2/users', { query: { ...filter, searchTerm }, signal });
}

/** `GET /v2/users/{id}` as the user picker names a user (a filter's user named in the address). */
export async function fetchPickerUser(userId: number, signal: AbortSignal): Promise<UserOption> {
  const { id, username, name } = await api<UserOption>('GET', `/v2/users/${userId}`, { signal });
  return { id, username, name };
}
