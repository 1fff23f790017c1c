// Every page at three widths and under axe-core. The longest file of the journeys: its name puts it
// among the first files the workers take (they take them in name order), so the other worker runs
// the rest beside it instead of waiting at the end.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import type { AxeResults, RunOptions } from 'axe-core';
import { apiSession, login, type ApiSession } from './helpers.ts';
import { DEVICE_PERMISSIONS } from '@tankportal/shared/devices';

// Demo fleet (packages/server/src/seed/demo-fleet.ts): device 9 has one tank (and an open alarm),
// device 39 a water tank and a water meter (a counter), device 6 belongs to `heizung-meier`, a
// customer who hears of its events (a recipient row).
const LEVEL = 9;
const COUNTER = 39;
const CUSTOMERS = 6;
// Device 21 has its public status page switched on.
const PUBLIC = 21;
// Device 33 has deliveries and a leak alarm, device 15 a stuck level sensor.
const DELIVERIES = 33;
const STUCK = 15;

const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
] as const;
/** The WCAG 2.1 level A and AA rules of axe-core, checked on every page on a phone and a laptop. */
const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const PHONE_WIDTH = 390;
const LAPTOP = { width: 1440, height: 900 } as const;
type Viewport = (typeof VIEWPORTS)[number] | typeof LAPTOP;

interface Check {
  name: string;
  path: string;
  /** What shows once the page is there (a test id, or a dialog). */
  ready: (page: Page) => ReturnType<Page['getByTestId']>;
}

const byId = (id: string) => (page: Page) => page.getByTestId(id);
const dialog = (page: Page) => page.getByRole('dialog');
const device = (id: number, sub = '') => `/devices/${id}${sub}`;

/** Every page of the device area and of the settings, the dialogs of the settings with them. */
const CHECKS: Check[] = [
  { name: 'device list', path: '/devices', ready: byId('devices-summary') },
  { name: 'block queries dialog', path: '/devices/block-queries', ready: byId('device-choice-count') },
  // The dispatch view: a year, so that the demo fleet's tanks fill it.
  { name: 'dispatch', path: '/devices/dispatch?within_days=365', ready: byId('dispatch-table') },
  {
    name: 'reference-date queries',
    path: '/devices/ref-date-queries',
    ready: byId('ref-date-queries-table'),
  },
  { name: 'new reference-date query dialog', path: '/devices/ref-date-queries/new', ready: dialog },
  {
    name: 'reference-date query dialog',
    path: '/devices/ref-date-queries/{refDate}',
    ready: byId('ref-date-query-owner'),
  },
  { name: 'status of a level device', path: device(LEVEL), ready: byId('fill-level-graphic') },
  { name: 'status of a counter device', path: device(COUNTER), ready: byId('status-page') },
  { name: 'process', path: device(LEVEL, '/process'), ready: byId('process-page') },
  { name: 'process of a counter device', path: device(COUNTER, '/process'), ready: byId('process-page') },
  // A device with deliveries (their list) and one with a stuck sensor (the health block).
  { name: 'process with deliveries', path: device(DELIVERIES, '/process'), ready: byId('deliveries-table') },
  { name: 'status with sensor health', path: device(STUCK, ''), ready: byId('health-section') },
  { name: 'consumption', path: device(LEVEL, '/consumption'), ready: byId('consumption-page') },
  {
    name: 'consumption of a counter device',
    path: device(COUNTER, '/consumption'),
    ready: byId('consumption-page'),
  },
  {
    name: 'settings: configuration',
    path: device(LEVEL, '/settings/configuration'),
    ready: byId('configuration-view'),
  },
  {
    name: 'settings: configuration dialog',
    path: device(LEVEL, '/settings/configuration/edit'),
    ready: dialog,
  },
  {
    name: 'settings: configuration of a counter device',
    path: device(COUNTER, '/settings/configuration'),
    ready: byId('configuration-view'),
  },
  {
    name: 'settings: base data (with its reference-date queries)',
    path: device(LEVEL, '/settings/metadata'),
    ready: byId('device-ref-date-queries'),
  },
  { name: 'settings: base data dialog', path: device(LEVEL, '/settings/metadata/edit'), ready: dialog },
  {
    name: 'settings: weather station dialog',
    path: device(LEVEL, '/settings/metadata/weather-station'),
    ready: (page) => page.getByRole('dialog').getByRole('combobox'),
  },
  {
    name: 'settings: recipients',
    path: device(CUSTOMERS, '/settings/notification-recipients'),
    ready: byId('recipients-tab'),
  },
  {
    name: 'settings: new recipient dialog',
    path: device(LEVEL, '/settings/notification-recipients/new'),
    ready: dialog,
  },
  { name: 'settings: access', path: device(CUSTOMERS, '/settings/access'), ready: byId('access-table') },
  { name: 'settings: new access dialog', path: device(CUSTOMERS, '/settings/access/new'), ready: dialog },
  // The access entry the set-up grants with every permission is one of its changes.
  { name: 'settings: changes', path: device(CUSTOMERS, '/settings/changes'), ready: byId('changes-table') },
  // Billing (master): the level device has a debtor and terms ({terms}), set up first.
  {
    name: 'settings: billing',
    path: device(LEVEL, '/settings/billing'),
    ready: (page) => page.getByTestId('billing-tab').getByRole('table'),
  },
  { name: 'settings: new billing terms dialog', path: device(LEVEL, '/settings/billing/new'), ready: dialog },
  { name: 'settings: billing terms dialog', path: device(LEVEL, '/settings/billing/{terms}'), ready: dialog },
  { name: 'settings: debtor dialog', path: device(LEVEL, '/settings/billing/debtor'), ready: dialog },
  {
    name: 'settings: invoice recipient dialog',
    path: device(LEVEL, '/settings/billing/recipient'),
    ready: dialog,
  },
  {
    name: 'settings: order number dialog',
    path: device(LEVEL, '/settings/billing/order-number'),
    ready: dialog,
  },
  // The dealer's side of orders (an order of the level device, set up first) and the device's switch.
  { name: 'orders', path: '/orders?state=all', ready: byId('orders-table') },
  {
    name: 'settings: replenishment',
    path: device(LEVEL, '/settings/replenishment'),
    ready: byId('replenishment-form'),
  },
  { name: 'user settings', path: '/settings', ready: byId('profile') },
  { name: 'user settings: password dialog', path: '/settings/credentials', ready: dialog },
  { name: 'user settings: sessions', path: '/settings/sessions', ready: byId('sessions') },
  {
    name: 'user settings: two-factor (with the white-label requirement)',
    path: '/settings/second-factor',
    ready: byId('second-factor-settings'),
  },
  { name: 'user settings: contacts', path: '/settings/contacts', ready: (page) => page.getByRole('table') },
  { name: 'contacts', path: '/contacts', ready: (page) => page.getByRole('table') },
  { name: 'user settings: new contact dialog', path: '/settings/contacts/new', ready: dialog },
  { name: 'device messages', path: device(LEVEL, '/messages'), ready: byId('message-filters') },
  { name: 'device messages: send dialog', path: device(LEVEL, '/messages/send'), ready: dialog },
  { name: 'messages', path: '/messages', ready: byId('message-filters') },
  { name: 'system: notifications', path: '/system/notifications', ready: byId('system-notifications') },
  { name: 'system: new notification dialog', path: '/system/notifications/new', ready: dialog },
  {
    name: 'system: billing, invoices',
    path: '/system/billing/invoices',
    ready: (page) => page.getByTestId('invoices-tab').getByRole('table'),
  },
  {
    name: 'system: billing, invoice dialog (with its export)',
    path: '/system/billing/invoices/{invoice}',
    ready: (page) => page.getByRole('dialog').getByTestId('invoice-export'),
  },
  {
    name: 'system: billing, invoicing runs',
    path: '/system/billing/runs',
    ready: (page) => page.getByTestId('invoicing-runs-tab'),
  },
  {
    name: 'system: billing, terms',
    path: '/system/billing/terms',
    ready: (page) => page.getByTestId('system-terms-tab').getByRole('table'),
  },
  {
    name: 'system: billing, invoice sender',
    path: '/system/billing/seller',
    ready: (page) => page.getByTestId('seller-tab').locator('dl'),
  },
  {
    name: 'system: billing, invoice sender dialog',
    path: '/system/billing/seller/{whitelabel}',
    ready: dialog,
  },
  {
    name: 'system: billing, DATEV',
    path: '/system/billing/datev',
    ready: (page) => page.getByTestId('datev-tab').locator('section').first(),
  },
  { name: 'system: billing, DATEV dialog', path: '/system/billing/datev/{whitelabel}', ready: dialog },
  {
    name: 'system: unassigned devices',
    path: '/system/unassigned-devices',
    ready: (page) => page.getByRole('group'),
  },
  // Weather stations: one with a long name and a failed import, set up first.
  {
    name: 'system: weather stations',
    path: '/system/weather-stations',
    ready: byId('weather-stations-table'),
  },
  { name: 'system: new weather station dialog', path: '/system/weather-stations/new', ready: dialog },
  // The whole record: the set-up's access entries are on it.
  { name: 'system: changes', path: '/system/changes', ready: byId('changes-table') },
  { name: 'system: jobs', path: '/system/jobs', ready: byId('system-jobs-table') },
  // The tour planner: a depot, a truck with two compartments and a tour of the day (a due tank,
  // the master its driver), set up first; the driver's phone page shows the same tour.
  {
    name: 'tours: planning',
    path: '/tours?depot={depot}',
    ready: (page) => page.getByTestId(/^saved-tour-\d+$/),
  },
  { name: 'tours: depots', path: '/tours/depots', ready: byId('depots-table') },
  { name: 'tours: new depot dialog', path: '/tours/depots/new', ready: dialog },
  { name: 'tours: trucks', path: '/tours/trucks', ready: byId('trucks-table') },
  { name: 'tours: truck dialog', path: '/tours/trucks/{truck}', ready: dialog },
  { name: "driver's tours", path: '/driver', ready: byId('driver-tours') },
  // The users area, on the customer `baeckerei-korn` ({korn}: its id, looked up first).
  { name: 'users tree', path: '/users', ready: (page) => page.getByRole('tree') },
  { name: 'users: new user dialog', path: '/users/new', ready: dialog },
  { name: 'user account', path: '/users/{korn}/account', ready: byId('user-account') },
  { name: 'user account: login dialog', path: '/users/{korn}/account/login', ready: dialog },
  { name: 'user account: base data dialog', path: '/users/{korn}/account/basedata', ready: dialog },
  { name: 'user access', path: '/users/{korn}/access', ready: byId('user-access-table') },
  { name: 'user access: new entry dialog', path: '/users/{korn}/access/new', ready: dialog },
  { name: 'user access: sync dialog', path: '/users/{korn}/access/sync', ready: dialog },
  // The access entry the set-up grants the user is one of its changes.
  { name: 'user changes', path: '/users/{korn}/changes', ready: byId('changes-table') },
  { name: 'user login history', path: '/users/{korn}/login-history', ready: byId('user-area') },
];

/**
 * What sticks out on the right (inside `scope`): beyond the window, or with `inside` beyond the
 * scope's own content edge (into the page's margin). What a container scrolls inside itself (a tab
 * strip, a table's own scroller) does not count.
 */
const overflowing = (page: Page, scope: string, inside = false) =>
  page.evaluate(
    ([selector, withinScope]) => {
      const container = document.querySelector(selector);
      const width =
        withinScope && container
          ? container.getBoundingClientRect().right - parseFloat(getComputedStyle(container).paddingRight)
          : window.innerWidth;
      const clipped = (element: Element) => {
        for (
          let parent = element.parentElement;
          parent && parent !== document.body;
          parent = parent.parentElement
        )
          if (getComputedStyle(parent).overflowX !== 'visible') return true;
        return false;
      };
      return [...document.querySelectorAll(`${selector} *`)]
        .map((element) => ({ element, right: element.getBoundingClientRect().right }))
        .filter(({ element, right }) => right > width + 0.5 && !clipped(element))
        .slice(0, 8)
        .map(({ element, right }) => {
          const testId = element.getAttribute('data-testid');
          const classes = [...element.classList].slice(0, 2).join('.');
          return `${element.tagName.toLowerCase()}${testId ? `[${testId}]` : ''}${classes ? `.${classes}` : ''} -> ${Math.round(right)}`;
        });
    },
    [scope, inside] as const,
  );

/**
 * The page's controls that lie beyond the window's right edge, hidden in a table that scrolls
 * inside itself (an action column cut off); the tab strip and the device's pages, which scroll by
 * design, do not count.
 */
const controlsOffScreen = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('main :is(a, button, input, [role="combobox"])')]
      .filter((element) => !element.closest('[role="tablist"], nav'))
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5)
      .slice(0, 8)
      .map((element) => element.getAttribute('aria-label') ?? element.textContent?.trim() ?? element.tagName),
  );

const widths = (page: Page) =>
  page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, window: window.innerWidth }));

async function attachScreenshot(page: Page, testInfo: TestInfo, name: string) {
  const path = testInfo.outputPath(`${name.replace(/[^\w×-]+/g, '-')}.png`);
  await page.screenshot({ fullPage: true, path });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

// The tables get long rows: an access entry with every permission, a contact of the master's and a
// reference-date query on every day of the week (a member of it: the level device).
let setUp: ApiSession;
let korn = 0;
let refDate = 0;
let terms = 0;
let invoice = 0;
let whitelabel = 0;
let depot = 0;
let truck = 0;
let tour = 0;
let order = 0;
const cleanUp: string[] = [];
test.beforeAll(async ({ baseURL }) => {
  setUp = await apiSession(baseURL!);
  const post = async (path: string, data: object) => {
    const response = await setUp.context.post(`/api/v2${path}`, { headers: setUp.headers, data });
    expect(response.status()).toBe(201);
    const { id } = (await response.json()) as { id: number };
    cleanUp.push(`/api/v2${path}/${id}`);
    return id;
  };
  const users = (await (await setUp.context.get('/api/v2/users?search_term=baeckerei-korn')).json()) as {
    id: number;
    username: string;
  }[];
  const { id: userId } = users.find(({ username }) => username === 'baeckerei-korn')!;
  korn = userId;
  await post(`/devices/${CUSTOMERS}/aces`, { user_id: userId, permissions: DEVICE_PERMISSIONS });
  await post('/contacts', {
    first_name: 'Friederike',
    last_name: 'Oberhausen-Wilhelmshöhe',
    role: 'Disposition Heizöl und Diesel',
    cell_number: '+491705559901',
    email: 'friederike.oberhausen-wilhelmshoehe@disposition.example.com',
    language: 'de',
  });
  refDate = await post('/ref-date-queries', {
    interval_type: 'daily',
    intervals: ['daily_0', 'daily_1', 'daily_2', 'daily_3', 'daily_4', 'daily_5', 'daily_6'],
    query_at: '06:15',
    older_than: 43_200,
    active: true,
    device_ids: [LEVEL, CUSTOMERS],
  });
  // Billing: a debtor (the longest customer number Lexware Office, configured here, accepts),
  // terms with the longest texts, and an invoice of them.
  const debtor = await setUp.context.put(`/api/v2/devices/${LEVEL}/debtor`, {
    headers: setUp.headers,
    data: { ident: '999999999' },
  });
  expect(debtor.status()).toBe(204);
  const recipient = await setUp.context.put(`/api/v2/devices/${LEVEL}/billing-recipient`, {
    headers: setUp.headers,
    data: {
      order_number: 'PO-2026-000004711-HEIZOEL',
      recipient_address:
        'Oberhausen-Wilhelmshöhe GmbH & Co. KG\nDisposition Heizöl und Diesel\n12345 Musterstadt',
      // The longest a Leitweg-ID gets (46 characters, with its check digits).
      leitweg_id: '040110001234-ABCDEFGHIJ1234567890KLMNOPQRST-49',
    },
  });
  expect(recipient.status()).toBe(204);
  const monthStart = new Date();
  monthStart.setDate(1);
  const created = await setUp.context.post(`/api/v2/devices/${LEVEL}/billing-terms`, {
    headers: setUp.headers,
    data: {
      alias: 'custom',
      name: 'Wartungspauschale Heizöltank 01',
      price: '1234567.89',
      charging_period_type: 'q',
      time_of_invoicing: 'begin',
      valid_from: `${monthStart.getFullYear()}-${String(monthStart.getMonth() + 1).padStart(2, '0')}-01`,
      valid_until: '2099-12-31',
    },
  });
  expect(created.status()).toBe(201);
  terms = ((await created.json()) as { id: number }).id;
  const run = await setUp.context.post('/api/v2/invoicing-runs', { headers: setUp.headers, data: {} });
  expect(run.status()).toBe(200);
  const invoices = (await (
    await setUp.context.get(`/api/v2/invoices?year=${new Date().getFullYear()}`)
  ).json()) as { id: number }[];
  invoice = invoices[0]!.id;
  const sellers = (await (await setUp.context.get('/api/v2/invoice-sellers')).json()) as {
    whitelabel: { id: number };
  }[];
  whitelabel = sellers[0]!.whitelabel.id;
  // An order of the level device's tank with a note, as a dealer enters one phoned in.
  const level = (await (await setUp.context.get(`/api/v2/devices/${LEVEL}`)).json()) as {
    sensors: { id: number; type: string }[];
  };
  const day = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
  const ordered = await setUp.context.post(`/api/v2/devices/${LEVEL}/orders`, {
    headers: setUp.headers,
    data: {
      sensor_id: level.sensors.find((sensor) => sensor.type === 'probe')!.id,
      quantity: 1_234,
      earliest: day,
      latest: day,
      note: 'Zufahrt über den Hof, Schlüssel bei Familie Oberhausen-Wilhelmshöhe im Nachbarhaus',
    },
  });
  expect(ordered.status()).toBe(201);
  order = ((await ordered.json()) as { id: number }).id;
  // A weather station with a long name whose import failed (no internet here: its reason shows).
  const station = await post('/weather-stations', {
    id: '1346',
    name: 'Feldberg/Schwarzwald (Hochlagen, Messfeld am Gipfel Nordost)',
    lat: 47.8749,
    lng: 8.0038,
  });
  const imported = await setUp.context.post(`/api/v2/weather-stations/${station}/import`, {
    headers: setUp.headers,
  });
  expect(imported.status()).toBe(200);
  // A tour of the day from a depot on a truck, its stop a due tank without an order (not the level
  // device's, which has one), driven by the master.
  depot = await post('/depots', {
    name: 'Tanklager Oberhausen-Wilhelmshöhe Nordost',
    street: 'Industriestraße 117',
    postal_code: '46047',
    city: 'Oberhausen',
    lat: 51.4963,
    lng: 6.8638,
  });
  truck = await post('/trucks', {
    name: 'Dreikammer-Tankzug Nord',
    plate: 'OB-TP 2048',
    depot_id: depot,
    compartments: [
      { content_type: null, capacity: 12_000 },
      { content_type: null, capacity: 8_000 },
    ],
  });
  const due = (await (await setUp.context.get('/api/v2/dispatch?within_days=365')).json()) as {
    rows: { deviceId: number; sensorId: number }[];
  };
  const me = (await (await setUp.context.get('/api/v2/users/me')).json()) as { id: number };
  const today = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Berlin' }).format(new Date());
  const saved = await setUp.context.post('/api/v2/tours', {
    headers: setUp.headers,
    data: {
      day: today,
      depot_id: depot,
      tours: [
        {
          truck_id: truck,
          driver_user_id: me.id,
          stops: [{ sensor_id: due.rows.find((row) => row.deviceId !== LEVEL)!.sensorId, quantity: 2_500 }],
        },
      ],
    },
  });
  expect(saved.status()).toBe(201);
  tour = ((await saved.json()) as { id: number }[])[0]!.id;
  cleanUp.push(`/api/v2/tours/${tour}`);
});
test.afterAll(async () => {
  const cancelled = await setUp.context.post(`/api/v2/orders/${order}/cancel`, {
    headers: setUp.headers,
    data: { reason: 'e2e' },
  });
  expect(cancelled.status()).toBe(200);
  expect(
    (await setUp.context.delete(`/api/v2/billing-terms/${terms}`, { headers: setUp.headers })).status(),
  ).toBe(204);
  const recipient = await setUp.context.put(`/api/v2/devices/${LEVEL}/billing-recipient`, {
    headers: setUp.headers,
    data: { leitweg_id: '' },
  });
  expect(recipient.status()).toBe(204);
  const debtor = await setUp.context.put(`/api/v2/devices/${LEVEL}/debtor`, {
    headers: setUp.headers,
    data: { ident: null },
  });
  expect(debtor.status()).toBe(204);
  for (const path of cleanUp.reverse())
    expect((await setUp.context.delete(path, { headers: setUp.headers })).status()).toBe(204);
  await setUp.context.dispose();
});

/** What breaks the width at the page's current size, each as a line naming the elements. */
async function layoutProblems(page: Page): Promise<string[]> {
  const problems: string[] = [];
  // The page's own content (and its dialogs) first: the top bar is the shell's.
  const inMain = await overflowing(page, 'main', true);
  if (inMain.length) problems.push(`wider than the page: ${inMain.join(', ')}`);
  const inDialogs = await overflowing(page, '[role="presentation"]');
  if (inDialogs.length) problems.push(`wider than the window: ${inDialogs.join(', ')}`);
  const controls = await controlsOffScreen(page);
  if (controls.length) problems.push(`controls beyond the right edge: ${controls.join(', ')}`);
  const { scroll, window } = await widths(page);
  if (scroll > window)
    problems.push(
      `wider than the window (${scroll} > ${window}): ${(await overflowing(page, 'body')).join(', ')}`,
    );
  return problems;
}

/**
 * The page at rest: no transition that ends has run for a moment (a dialog fading in would be
 * measured half drawn; after a route change the last page's dialog fades out first and the next
 * one in once its data is there), and the layout after a resize (media queries, charts) drawn. A
 * spinner turns for ever and does not count.
 */
const settled = (page: Page) =>
  page.evaluate(async (quietMs) => {
    const moving = () =>
      document
        .getAnimations()
        .some(
          (animation) =>
            animation.playState === 'running' &&
            animation.effect?.getComputedTiming().iterations !== Infinity,
        );
    let quietSince = performance.now();
    while (performance.now() - quietSince < quietMs) {
      await new Promise((resolve) => requestAnimationFrame(resolve));
      if (moving()) quietSince = performance.now();
    }
  }, 150);

/** axe-core's script, evaluated in a page once per visit (a page's own scripts may not add it: CSP). */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
type AxeWindow = { axe: { run(context: Document, options: RunOptions): Promise<AxeResults> } };
const AXE_OPTIONS: RunOptions = { runOnly: { type: 'tag', values: WCAG_21_AA }, resultTypes: ['violations'] };

/**
 * What axe-core finds against WCAG 2.1 A/AA on the page as it is drawn: one line a rule, with its
 * impact and the elements (their selectors and, for a contrast, the colours axe measured).
 * axe runs in the page itself, on its document: the portal has no frames. It is added once per
 * visit, and only the violations come back: through @axe-core/playwright, which adds it for every
 * run and returns the passing checks as well, a run took two to four times as long.
 */
async function accessibilityProblems(page: Page): Promise<string[]> {
  // Evaluated as the DevTools protocol does, not by the page: its script policy does not apply.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(
    async (options) => (await (window as unknown as AxeWindow).axe.run(document, options)).violations,
    AXE_OPTIONS,
  );
  return violations.map(({ id, impact, help, nodes }) => {
    const elements = nodes
      .slice(0, 6)
      .map(({ target, any }) => `${target.join(' ')}${any[0] ? ` (${any[0].message})` : ''}`);
    if (nodes.length > 6) elements.push(`${nodes.length - 6} more`);
    return `${id} [${impact ?? 'unknown'}] ${help}: ${elements.join('; ')}`;
  });
}

/**
 * Opens a page once and checks it at each size, resized in place (as a window or a turned tablet
 * would be): its width at every size of `order`, and at the phone's width and the laptop's what
 * axe finds. A screenshot is taken only of what fails.
 */
async function checkPage(page: Page, check: Check, url: string, order: Viewport[], testInfo: TestInfo) {
  await page.setViewportSize(order[0]!);
  if (new URL(page.url()).origin === new URL(url).origin) await openInApp(page, url);
  else await page.goto(url);
  // Charts and fonts settle before the page is measured.
  await page.waitForLoadState('networkidle');
  const drawnAt = async (viewport: Viewport) => {
    await page.setViewportSize(viewport);
    await expect(check.ready(page).first()).toBeVisible();
    await expect(page.getByRole('progressbar')).toHaveCount(0);
    await settled(page);
  };
  const expectAccessible = async (size: string) => {
    const problems = await accessibilityProblems(page);
    if (problems.length) await attachScreenshot(page, testInfo, `${size} ${check.name} accessibility`);
    expect(problems, `WCAG 2.1 A/AA at ${size}: ${check.name}`).toEqual([]);
  };
  for (const viewport of order) {
    const size = `${viewport.width}×${viewport.height}`;
    await test.step(size, async () => {
      await drawnAt(viewport);
      let problems = await layoutProblems(page);
      // A layout still moving after the resize gets a moment; what stays too wide fails.
      if (problems.length) {
        await page.waitForTimeout(500);
        problems = await layoutProblems(page);
      }
      if (problems.length) await attachScreenshot(page, testInfo, `${size} ${check.name}`);
      expect(problems, `${size}: ${check.name}`).toEqual([]);
      if (viewport.width === PHONE_WIDTH) await expectAccessible(size);
    });
  }
  const laptop = `${LAPTOP.width}×${LAPTOP.height}`;
  await test.step(`${laptop} accessibility`, async () => {
    await drawnAt(LAPTOP);
    await expectAccessible(laptop);
  });
}

/**
 * Opens a page of the app already loaded as a link in it would: the router draws the route, the
 * app is not loaded again (a new load costs the browser about half a second of processor time more).
 */
async function openInApp(page: Page, url: string) {
  const { pathname, search } = new URL(url);
  const loaded = page.waitForURL(url);
  await page.evaluate((target) => {
    window.history.pushState(window.history.state, '', target);
    window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
  }, `${pathname}${search}`);
  await loaded;
}

/** The sizes a page is checked at, the first one rotating from page to page. */
const rotated = (index: number) => VIEWPORTS.map((_, step) => VIEWPORTS[(index + step) % VIEWPORTS.length]!);

// Each page is opened once and checked at its sizes in place. Which width the page is first drawn
// at rotates from page to page, so a page drawn fresh at a width and a page resized to it are both
// checked.
test.describe(`no sideways scrolling at ${VIEWPORTS.map(({ width }) => width).join(', ')} px, WCAG 2.1 AA at ${PHONE_WIDTH} and ${LAPTOP.width} px`, () => {
  // Signed in once; each check opens its page in the same tab, through the app's router.
  let page: Page;
  test.beforeAll(async ({ browser }) => {
    // A context of its own (not `browser.newPage`): axe opens a page of its own in it. In the
    // installation's time zone, so that "today" of the tour pages is the day the set-up saved.
    page = await (
      await browser.newContext({ viewport: VIEWPORTS[0], timezoneId: 'Europe/Berlin' })
    ).newPage();
    await login(page, 'master');
  });
  test.afterAll(async () => {
    await page.context().close();
  });

  CHECKS.forEach((check, index) => {
    test(`${check.name} (${check.path})`, async ({ baseURL }, testInfo) => {
      const path = check.path
        .replace('{korn}', String(korn))
        .replace('{refDate}', String(refDate))
        .replace('{terms}', String(terms))
        .replace('{invoice}', String(invoice))
        .replace('{whitelabel}', String(whitelabel))
        .replace('{depot}', String(depot))
        .replace('{truck}', String(truck))
        .replace('{tour}', String(tour));
      await checkPage(page, check, `${baseURL}${path}`, rotated(index), testInfo);
    });
  });
});

// The pages outside the signed-in app, in a browser that has never signed in.
test.describe('signed out', () => {
  let page: Page;
  test.beforeAll(async ({ browser }) => {
    page = await (await browser.newContext({ viewport: VIEWPORTS[0] })).newPage();
  });
  test.afterAll(async () => {
    await page.context().close();
  });

  test('login page (/login)', async ({ baseURL }, testInfo) => {
    const check: Check = {
      name: 'login page',
      path: '/login',
      ready: (at) => at.getByRole('heading', { level: 1 }),
    };
    await checkPage(page, check, `${baseURL}${check.path}`, rotated(0), testInfo);
  });

  test('public status page (/public/{token})', async ({ baseURL }, testInfo) => {
    const { publicUrl } = (await (await setUp.context.get(`/api/v2/devices/${PUBLIC}`)).json()) as {
      publicUrl: string;
    };
    const check: Check = { name: 'public status page', path: publicUrl, ready: byId('fill-level-graphic') };
    await checkPage(page, check, `${baseURL}${check.path}`, rotated(1), testInfo);
  });
});

// The page an admin is held on while the white-label requires a second factor the admin has not
// set up (a user of its own, the requirement switched on only while it runs).
test.describe('held back for the second factor', () => {
  const password = 'Füllstand-Kessel-7193';
  const requirement = (required: boolean) =>
    setUp.context.put('/api/v2/whitelabels/current/second-factor-policy', {
      headers: setUp.headers,
      data: { required_from_admin: required },
    });
  let page: Page;
  test.beforeAll(async ({ browser, baseURL }) => {
    const username = `all-pages-admin-${Date.now() % 1_000_000}`;
    const master = (await (await setUp.context.get('/api/v2/users/me')).json()) as { id: number };
    const created = await setUp.context.post('/api/v2/users', {
      headers: setUp.headers,
      data: { username, parent_user_id: master.id, role: 'ROLE_ADMIN', password, password_repeat: password },
    });
    expect(created.status()).toBe(201);
    expect((await requirement(true)).status()).toBe(200);
    const admin = await apiSession(baseURL!, username, password);
    page = await (await browser.newContext({ viewport: VIEWPORTS[0] })).newPage();
    await page.context().addCookies((await admin.context.storageState()).cookies);
    await admin.context.dispose();
  });
  test.afterAll(async () => {
    await requirement(false);
    await page.context().close();
  });

  test('second factor required (/second-factor)', async ({ baseURL }, testInfo) => {
    const check: Check = {
      name: 'second factor required',
      path: '/second-factor',
      ready: (at) => at.getByRole('heading', { level: 1 }),
    };
    await checkPage(page, check, `${baseURL}${check.path}`, rotated(2), testInfo);
  });
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('390×844: a status page shows the fill level on the first screen', async ({ page }, testInfo) => {
    await login(page, 'master', device(LEVEL));
    const graphic = page.getByTestId('fill-level-graphic').first();
    await expect(graphic).toBeVisible();
    await attachScreenshot(page, testInfo, 'status page');
    const box = (await graphic.boundingBox())!;
    // The whole fill graphic, percentage and bar, is there without scrolling.
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(844);
    await expect(graphic).toBeInViewport({ ratio: 1 });
    // The device's pages are one row that scrolls inside itself, not a column above the content.
    const menu = page.getByRole('navigation', { name: 'Geräteseiten' });
    expect((await menu.boundingBox())!.height).toBeLessThan(80);
    expect((await widths(page)).scroll).toBeLessThanOrEqual(390);
  });

  test('390×844: a settings tab starts on the first screen and its table actions are reachable', async ({
    page,
  }, testInfo) => {
    await login(page, 'master', device(CUSTOMERS, '/settings/notification-recipients'));
    const table = page.getByTestId('recipients-tab').getByRole('table');
    await expect(table).toBeVisible();
    await attachScreenshot(page, testInfo, 'recipients tab');
    // The tab's content (its first row) begins in the upper half of the first screen.
    const firstRow = table.locator('tbody tr').first();
    expect((await firstRow.boundingBox())!.y).toBeLessThan(844 / 2);
    await expect(firstRow).toBeInViewport();
    // The row's action is on the screen and opens the entry's dialog, which fits the screen.
    const edit = firstRow.getByRole('link', { name: /^Empfänger bearbeiten/ });
    await expect(edit).toBeInViewport({ ratio: 1 });
    await edit.click();
    const opened = page.getByRole('dialog');
    await expect(opened).toBeVisible();
    const box = (await opened.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect((await widths(page)).scroll).toBeLessThanOrEqual(390);
  });
});
