import { SystemBillingPage } from '../../features/billing/components/system-billing-page.tsx';
import { SystemTabs } from '../../features/system/components/system-tabs.tsx';

/** /system/billing/*: the billing feature's page under the system area's tabs. */
export default function SystemBillingRoute() {
  return <SystemBillingPage systemTabs={<SystemTabs />} />;
}
