// The device-list queries the fleet benchmarks time (bench/device-fleet.ts) and explain
// (bench/device-list-plans.ts): each sort the list offers an index or a full sort for, grouped by
// user, and searches that find thousands of devices, hundreds, a few and one.

export interface ListScenario {
  label: string;
  sort: string;
  search?: string;
  grouped?: boolean;
}

export const LIST_SCENARIOS: ListScenario[] = [
  { label: 'id desc', sort: 'id:desc' },
  { label: 'name desc', sort: 'name:desc' },
  { label: 'last report desc', sort: 'lastReportedAt:desc' },
  { label: 'city desc', sort: 'city:desc' },
  { label: 'SIM credit desc', sort: 'simCredit:desc' },
  { label: 'status desc, grouped by user', sort: 'status:desc', grouped: true },
  { label: 'user desc, grouped by user', sort: 'username:desc', grouped: true },
  { label: 'search "Tankstelle", name desc', sort: 'name:desc', search: 'Tankstelle' },
  { label: 'search "köln", city desc', sort: 'city:desc', search: 'köln' },
  { label: 'search "kunde-04" (owner), last report desc', sort: 'lastReportedAt:desc', search: 'kunde-04' },
  { label: 'search "4711" (id and idents), id desc', sort: 'id:desc', search: '4711' },
  { label: 'search "Heizung 99", postal code desc', sort: 'postalCode:desc', search: 'Heizung 99' },
];

/** A page as the list page asks for it: uncounted (the counts come once per filter, `totalsUrl`). */
export function listUrl(base: string, scenario: ListScenario, page: number) {
  const query = new URLSearchParams({
    page: String(page),
    per_page: '100',
    sort: scenario.sort,
    counts: 'false',
  });
  if (scenario.search) query.set('search_term', scenario.search);
  if (scenario.grouped) query.set('grouped', '1');
  return `${base}/api/v2/devices?${query}`;
}

/** The count and footer totals of a scenario's filter, which the list page asks for once per filter. */
export function totalsUrl(base: string, scenario: ListScenario) {
  const query = new URLSearchParams();
  if (scenario.search) query.set('search_term', scenario.search);
  return `${base}/api/v2/devices/totals?${query}`;
}
