import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CurrentUser } from '@tankportal/shared/schemas/auth';
import type { CommentBody } from '@tankportal/shared/schemas/device-metadata';
import type { DeviceSummary } from '@tankportal/shared/schemas/devices';
import type {
  CreateUserBody,
  LoginHistoryEntry,
  SyncAccessResult,
  UserBasedataBody,
  UserDetail,
  UserLoginBody,
} from '@tankportal/shared/schemas/users';
import { api } from '../../../lib/api-client.ts';
import { deviceKeys } from '../../../lib/api/devices.ts';
import type { JsonOf } from '../../../lib/api/json.ts';
import { fetchPage } from '../../../lib/api/paged.ts';
import { rememberImpersonationStart } from '../../../lib/impersonation-return.ts';
import { userKeys } from '../../../lib/api/users.ts';

/** The calls of the users area beside the tree. */

export type UserView = JsonOf<UserDetail>;
export type UserDeviceView = JsonOf<DeviceSummary>;

/** The access page shows the user's devices in pages of 100, no choice. */
export const ACCESS_PAGE_SIZE = 100;

const userPath = (userId: number) => `/v2/users/${userId}`;
const detailKey = (userId: number) => [...userKeys.one(userId), 'detail'] as const;

/** GET /v2/users/{id}; not retried: an unknown user sends the page back to the tree at once. */
export function useUser(userId: number | null) {
  return useQuery({
    queryKey: detailKey(userId ?? 0),
    queryFn: ({ signal }) => api<UserView>('GET', userPath(userId!), { signal }),
    retry: false,
    enabled: userId !== null,
  });
}

/** After a change the user, the tree and the pickers show it. */
function useUsersChanged() {
  const queryClient = useQueryClient();
  return (userId?: number) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: userKeys.tree() }),
      queryClient.invalidateQueries({ queryKey: [...userKeys.all, 'picker'] }),
      userId === undefined ? null : queryClient.invalidateQueries({ queryKey: userKeys.one(userId) }),
    ]);
}

/** POST /v2/users: the new user's id comes back in the answer. */
export function useCreateUser() {
  const changed = useUsersChanged();
  return useMutation({
    mutationFn: (body: CreateUserBody) => api<UserView>('POST', '/v2/users', { body }),
    onSuccess: () => changed(),
    meta: { errorToast: 'unlessFieldErrors' },
  });
}

/** The saves of the account page; each answers the user as it now is. */
export function useUserMutations(userId: number) {
  const queryClient = useQueryClient();
  const changed = useUsersChanged();
  const onSuccess = () => changed(userId);
  const save = <B>(section: string) =>
    ({
      mutationFn: (body: B) => api<UserView>('PUT', `${userPath(userId)}/${section}`, { body }),
      onSuccess,
      meta: { errorToast: 'unlessFieldErrors' },
    }) as const;
  return {
    login: useMutation(save<UserLoginBody>('login')),
    basedata: useMutation(save<UserBasedataBody>('basedata')),
    comment: useMutation(save<CommentBody>('comment')),
    // A refused delete says why itself (sub-users, devices): no generic toast.
    remove: useMutation({
      mutationFn: () => api<void>('DELETE', userPath(userId)),
      // The deleted user is dropped, not asked for again: the page still showing it would hear
      // "not found" and say so beside "deleted".
      onSuccess: () => {
        queryClient.removeQueries({ queryKey: userKeys.one(userId) });
        return changed();
      },
      meta: { errorToast: false },
    }),
    newToken: useMutation({
      mutationFn: () => api<{ authToken: string }>('POST', `${userPath(userId)}/auth-token`),
      onSuccess,
    }),
    removeToken: useMutation({
      mutationFn: () => api<void>('DELETE', `${userPath(userId)}/auth-token`),
      onSuccess,
    }),
    // A master's reset of the user's second factor (a lost phone): the user's sessions end.
    resetSecondFactor: useMutation({
      mutationFn: () => api<void>('DELETE', `${userPath(userId)}/second-factor`),
      onSuccess,
    }),
  };
}

/** GET /v2/users/{id}/logins (master): the newest first. */
export function useLoginHistory(userId: number) {
  return useQuery({
    queryKey: [...userKeys.one(userId), 'logins'],
    queryFn: ({ signal }) => api<LoginHistoryEntry[]>('GET', `${userPath(userId)}/logins`, { signal }),
  });
}

/** GET /v2/devices?user_id: one page of the devices the user owns or holds an entry on. */
export function useUserDevices(userId: number, page: number) {
  return useQuery({
    queryKey: [...userKeys.deviceAccess(), userId, page],
    queryFn: ({ signal }) =>
      fetchPage<UserDeviceView>(
        '/v2/devices',
        { userId, perPage: ACCESS_PAGE_SIZE, page, sort: 'id:asc' },
        signal,
      ),
    placeholderData: keepPreviousData,
  });
}

/**
 * PUT /v2/users/{id}/sync-access (master): the user's entries become the other user's; the answer
 * counts the entries removed and copied.
 */
export function useSyncAccess(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (syncWithUserId: number) =>
      api<SyncAccessResult>('PUT', `${userPath(userId)}/sync-access`, { body: { syncWithUserId } }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: userKeys.deviceAccess() }),
        queryClient.invalidateQueries({ queryKey: deviceKeys.pickers() }),
      ]),
  });
}

/**
 * GET /v2/users/me?_impersonate_user: acting as the user; the app starts again at /. The page it
 * started from is where ending it leads back to.
 */
export function useImpersonate() {
  return useMutation({
    mutationFn: (username: string) =>
      api<CurrentUser>('GET', '/v2/users/me', { query: { _impersonate_user: username } }),
    onSuccess: () => {
      rememberImpersonationStart(window.location.pathname);
      window.location.assign('/');
    },
  });
}
