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
