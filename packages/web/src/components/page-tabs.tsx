import { Link as RouterLink, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';

export interface TabPage {
  path: string;
  /** The i18n key of the tab's label. */
  label: string;
}

/** The page of `pages` the path lies in: the longest one it starts with (`/settings/sessions` over `/settings`). */
function currentTabPage(pages: readonly TabPage[], pathname: string): string | false {
  const within = pages.filter((page) => pathname === page.path || pathname.startsWith(`${page.path}/`));
  return within.sort((a, b) => b.path.length - a.path.length)[0]?.path ?? false;
}

/** The pages of an area as tabs above each (links: every tab is a page of its own). */
export function PageTabs({ pages, label }: { pages: readonly TabPage[]; label: string }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <Tabs
      value={currentTabPage(pages, pathname)}
      variant="scrollable"
      allowScrollButtonsMobile
      sx={{ mb: 2 }}
      aria-label={label}
    >
      {pages.map((page) => (
        <Tab key={page.path} value={page.path} label={t(page.label)} component={RouterLink} to={page.path} />
      ))}
    </Tabs>
  );
}
