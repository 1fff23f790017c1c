import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Locale } from '@tankportal/shared/constants';
import type { DatevSettings } from '@tankportal/shared/schemas/datev';
import { api, apiDownload } from '../../../lib/api-client.ts';

export type { DatevSettings };

/** GET /v2/datev-settings: a white-label and its DATEV numbers and accounts (null: not set yet). */
export interface DatevSettingsEntry {
  whitelabel: { id: number; name: string; title: string };
  settings: DatevSettings | null;
}

const datevKeys = { settings: ['billing', 'datev-settings'] as const };

export function useDatevSettings() {
  return useQuery({
    queryKey: datevKeys.settings,
    queryFn: ({ signal }) => api<DatevSettingsEntry[]>('GET', '/v2/datev-settings', { signal }),
  });
}

/** PUT /v2/datev-settings/{whitelabelId}: field errors land on the fields, other failures toast. */
export function useSaveDatevSettings(whitelabelId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: DatevSettings) =>
      api<DatevSettingsEntry>('PUT', `/v2/datev-settings/${whitelabelId}`, { body }),
    meta: { errorToast: 'unlessFieldErrors' },
    onSuccess: (saved) => {
      queryClient.setQueryData<DatevSettingsEntry[]>(datevKeys.settings, (entries) =>
        entries?.map((entry) => (entry.whitelabel.id === saved.whitelabel.id ? saved : entry)),
      );
      return queryClient.invalidateQueries({ queryKey: datevKeys.settings });
    },
  });
}

/**
 * GET /v2/datev-exports/{whitelabelId}: the browser downloads the ZIP (Buchungsstapel and PDFs);
 * a refusal rejects (an ApiError).
 */
export function downloadDatevExport(whitelabelId: number, from: string, to: string, locale: Locale) {
  return apiDownload(`/v2/datev-exports/${whitelabelId}`, { from, to, locale });
}
