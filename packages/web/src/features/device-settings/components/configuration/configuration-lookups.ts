import { useQuery } from '@tanstack/react-query';
import { lookupQuery, type LookupName } from '../../../../lib/lookups.ts';
import { useLocale } from '../../../../lib/i18n.ts';

type Localised = { de: string; en: string };

export interface ContentType {
  id: string;
  name: Localised;
  defaultDensity: number;
}
export interface TankGeometry {
  id: number;
  name: Localised;
}
export interface SmsGateway {
  id: number;
  label: string;
  provider: string;
  owner: string;
  country: string;
}
export interface MobileProvider {
  id: string;
  name: string;
  countryCode: string;
}

/** A start-up lookup (lib/lookups.ts; already loaded when a device page shows). */
function useLookup<T>(name: LookupName): T[] {
  return (useQuery(lookupQuery(name)).data as T[] | undefined) ?? [];
}

/** The lookups the configuration shows and offers, with their names in the UI language. */
export function useConfigurationLookups() {
  const locale = useLocale();
  const contentTypes = useLookup<ContentType>('contentTypes');
  const geometries = useLookup<TankGeometry>('tankGeometries');
  const gateways = useLookup<SmsGateway>('smsGateways');
  const providers = useLookup<MobileProvider>('mobileProviders');
  return {
    contentTypes,
    geometries,
    gateways,
    providers,
    contentTypeName: (id: string | null | undefined) =>
      id ? (contentTypes.find((type) => type.id === id)?.name[locale] ?? id) : null,
    geometryName: (id: number | null | undefined) =>
      id == null ? null : (geometries.find((geometry) => geometry.id === id)?.name[locale] ?? String(id)),
    gatewayName: (id: number | null | undefined) =>
      id == null ? null : (gateways.find((gateway) => gateway.id === id)?.label ?? `#${id}`),
    providerName: (id: string | null | undefined) =>
      id ? (providers.find((provider) => provider.id === id)?.name ?? id) : null,
    localeName: (name: Localised) => name[locale],
  };
}

export type ConfigurationLookups = ReturnType<typeof useConfigurationLookups>;
