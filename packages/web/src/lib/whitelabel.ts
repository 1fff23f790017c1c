import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client.ts';

interface Localised {
  de: string;
  en: string;
}

export interface Whitelabel {
  id: number;
  name: string;
  isDefault: boolean;
  title: string;
  faviconUrl: string | null;
  theme: { primary: string; secondary: string };
  headerImageUrl: string | null;
  registrationUrl: string | null;
  announcement: Localised | null;
  oilPriceLinks: { label: string; url: string }[];
  legal: { imprint: Localised; privacy: Localised };
  resetDataEnabled: boolean;
}

/** The white-label the server reports for this host (public: the login page needs it). */
export function useWhitelabel() {
  return useQuery({
    queryKey: ['whitelabels', 'current'],
    queryFn: () => api<Whitelabel>('GET', '/v2/whitelabels/current', { allowUnauthorized: true }),
    staleTime: Infinity,
  });
}

export const whitelabelConfigQuery = queryOptions({
  queryKey: ['config', 'whitelabel'],
  queryFn: () => api<Record<string, unknown>>('GET', '/v2/config/whitelabel'),
  staleTime: Infinity,
});

export function useWhitelabelConfig(enabled: boolean) {
  return useQuery({ ...whitelabelConfigQuery, enabled });
}
