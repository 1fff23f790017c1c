import { useQueries } from '@tanstack/react-query';
import { api } from './api-client.ts';

/** Shared lookups the app loads once after the user. */
export const LOOKUPS = {
  smsGateways: '/v2/sms-gateways',
  contentTypes: '/v2/content-types',
  contentDensities: '/v2/content-densities',
  mobileProviders: '/v2/mobile-providers',
  countries: '/v2/countries',
  tankGeometries: '/v2/tank-geometries',
} as const;

export type LookupName = keyof typeof LOOKUPS;

export const lookupQuery = (name: LookupName) => ({
  queryKey: ['lookups', name],
  queryFn: () => api<unknown[]>('GET', LOOKUPS[name]),
  staleTime: Infinity,
});

/** Starts loading every lookup; true once all have settled. */
export function useStartupLookups(enabled: boolean): boolean {
  const results = useQueries({
    queries: (Object.keys(LOOKUPS) as LookupName[]).map((name) => ({ ...lookupQuery(name), enabled })),
  });
  return !enabled || results.every((result) => !result.isPending);
}
