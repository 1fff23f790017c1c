import type { ReactNode } from 'react';
import { Link as RouterLink, Navigate, Route, Routes, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { Page } from '../../../components/page.tsx';
import { BILLING_BASE } from '../lib/billing-paths.ts';
import { DatevTab } from './datev-tab.tsx';
import { InvoicesTab } from './invoices-tab.tsx';
import { InvoicingRunsTab } from './invoicing-runs-tab.tsx';
import { SellerTab } from './seller-tab.tsx';
import { SystemTermsTab } from './system-terms-tab.tsx';

const TABS = ['invoices', 'runs', 'terms', 'seller', 'datev'] as const;

/**
 * /system/billing (master): the invoices (default), the recent invoicing runs with
 * what they billed and skipped, every device's billing terms and the seller the invoices of each white-label name,
 * and the DATEV export for the tax advisor.
 * `systemTabs`: the system area's pages above (the app puts them together, src/app).
 */
export function SystemBillingPage({ systemTabs }: { systemTabs: ReactNode }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const current = TABS.find((tab) => pathname.startsWith(`${BILLING_BASE}/${tab}`)) ?? false;
  return (
    <Page title={t('system.title')}>
      {systemTabs}
      <Tabs
        value={current}
        variant="scrollable"
        allowScrollButtonsMobile
        aria-label={t('system.billing')}
        sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}
      >
        {TABS.map((tab) => (
          <Tab
            key={tab}
            value={tab}
            label={t(`billing.system.tabs.${tab}`)}
            component={RouterLink}
            to={`${BILLING_BASE}/${tab}`}
            data-testid={`billing-tab-${tab}`}
          />
        ))}
      </Tabs>
      <Routes>
        <Route path="invoices/*" element={<InvoicesTab />} />
        <Route path="runs" element={<InvoicingRunsTab />} />
        <Route path="terms" element={<SystemTermsTab />} />
        <Route path="seller/*" element={<SellerTab />} />
        <Route path="datev/*" element={<DatevTab />} />
        <Route path="*" element={<Navigate to={`${BILLING_BASE}/invoices`} replace />} />
      </Routes>
    </Page>
  );
}
