import { Suspense, useEffect, useState } from 'react';
import { Outlet } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import { LAYOUT_MAX_WIDTH } from '@tankportal/shared/constants';
import { useCurrentUser } from '../lib/session.ts';
import { useStartupLookups } from '../lib/lookups.ts';
import { useWhitelabelConfig } from '../lib/whitelabel.ts';
import { useLiveUpdates } from '../lib/live-updates.ts';
import { Loading } from '../components/loading.tsx';
import { preloadDeepLink } from './preload-deep-link.ts';
import { ImpersonationBanner } from '../features/auth/components/impersonation-banner.tsx';
import { TopBar } from './top-bar.tsx';

/** Signed-in layout: impersonation banner, top bar, page; start-up lookups and live updates start here. */
export default function AppShell() {
  const { data: user } = useCurrentUser();
  useWhitelabelConfig(!!user);
  const lookupsReady = useStartupLookups(!!user);
  // Open device pages refresh when their devices report (decision 045); a new identity, a new stream.
  useLiveUpdates(user ? `${user.id}:${user.impersonator?.id ?? ''}` : null);
  const queryClient = useQueryClient();
  // Only the page the shell opened with: later navigation loads its code as usual.
  const [openedAt] = useState(() => window.location.pathname);
  useEffect(() => {
    if (user && preloadDeepLink(openedAt, queryClient)) void import('./routes/devices-routes.tsx');
  }, [user, openedAt, queryClient]);
  if (!user) return null;
  return (
    <>
      <ImpersonationBanner user={user} />
      <TopBar user={user} />
      <Box component="main" sx={{ maxWidth: LAYOUT_MAX_WIDTH, mx: 'auto', px: 2 }}>
        {lookupsReady ? (
          <Suspense fallback={<Loading />}>
            <Outlet />
          </Suspense>
        ) : (
          <Loading />
        )}
      </Box>
    </>
  );
}
