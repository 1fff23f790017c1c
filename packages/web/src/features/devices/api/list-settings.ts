import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ConfigItem } from '@tankportal/shared/schemas/config';
import { hasRole, type Role } from '@tankportal/shared/roles';
import { api } from '../../../lib/api-client.ts';
import {
  effectiveListSettings,
  LIST_SETTING_KEYS,
  listSettingEntries,
  type ListDisplaySettings,
  type StoredSettings,
} from '../lib/list-settings.ts';
import { deviceKeys } from '../../../lib/api/devices.ts';

/** Who decides the list's look: admins and above for the white-label, others for themselves. */
export function listSettingsTarget(role: Role): 'whitelabel' | 'user' | null {
  if (hasRole(role, 'ROLE_ADMIN')) return 'whitelabel';
  if (hasRole(role, 'ROLE_APP_USER')) return 'user';
  return null; // demo: read-only
}

function byObject(items: ConfigItem[], obj: ConfigItem['obj']): StoredSettings {
  return Object.fromEntries(items.filter((item) => item.obj === obj).map((item) => [item.key, item.value]));
}

async function fetchListSettings(withUser: boolean, signal: AbortSignal) {
  const params = new URLSearchParams();
  for (const key of LIST_SETTING_KEYS) {
    params.append('params[]', `whitelabel:current:${key}`);
    if (withUser) params.append('params[]', `user:me:${key}`);
  }
  try {
    const items = await api<ConfigItem[]>('GET', `/v2/config?${params}`, { signal });
    return { whitelabel: byObject(items, 'whitelabel'), user: byObject(items, 'user') };
  } catch {
    // A failure loading the settings is swallowed; the built-in defaults apply.
    return { whitelabel: {}, user: {} };
  }
}

// Module-level so TanStack Query keeps the selected object stable between renders.
const toEffective = (stored: { whitelabel: StoredSettings; user: StoredSettings }): ListDisplaySettings =>
  effectiveListSettings(stored.whitelabel, stored.user);

/**
 * The effective list display settings of the signed-in user (user ?? white-label ?? default).
 * A demo account stores nothing of its own, so only the white-label's are asked for.
 */
export const listSettingsQuery = (role: Role) => {
  const withUser = hasRole(role, 'ROLE_APP_USER');
  return queryOptions({
    queryKey: [...deviceKeys.listSettings(), withUser],
    queryFn: ({ signal }) => fetchListSettings(withUser, signal),
    staleTime: Infinity,
  });
};

export function useListSettings(role: Role) {
  return useQuery({ ...listSettingsQuery(role), select: toEffective });
}

/** Saves all list settings in one call, to the white-label or the user as the role decides. */
export function useSaveListSettings(target: 'whitelabel' | 'user') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: ListDisplaySettings) =>
      api<ConfigItem[]>('PUT', '/v2/config', {
        body: listSettingEntries(settings).map(({ key, value }) => ({
          obj: target,
          id: target === 'whitelabel' ? 'current' : 'me',
          key,
          value,
        })),
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deviceKeys.listSettings() }),
  });
}
