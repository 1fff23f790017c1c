import { useQuery } from '@tanstack/react-query';
import { lookupQuery } from './lookups.ts';
import { useLocale } from './i18n.ts';

interface ContentType {
  id: string;
  name: { de: string; en: string };
}

/** The content types' names in the UI language (a start-up lookup, already loaded). */
export function useContentTypeName(): (id: string) => string {
  const locale = useLocale();
  const { data } = useQuery(lookupQuery('contentTypes'));
  const names = new Map((data as ContentType[] | undefined)?.map((type) => [type.id, type.name[locale]]));
  return (id: string) => names.get(id) ?? id;
}
