import { useEffect, useMemo, type ReactNode } from 'react';
import { MutationCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import i18n from '../lib/i18n.ts';
import { notifyMutationError } from '../lib/mutation-errors.ts';
import { portalTheme } from '../lib/theme.ts';
import { useWhitelabel } from '../lib/whitelabel.ts';

export const queryClient = new QueryClient({
  // Every failed mutation tells the user the same way, unless its meta opts out (mutation-errors.ts).
  mutationCache: new MutationCache({
    onError: (error, _variables, _context, mutation) =>
      notifyMutationError(error, mutation.options.meta, i18n.t),
  }),
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } },
});

/** Theme, title and favicon follow the white-label the server reports. */
function WhitelabelTheme({ children }: { children: ReactNode }) {
  const { data: whitelabel } = useWhitelabel();
  const theme = useMemo(() => portalTheme(whitelabel?.theme), [whitelabel]);
  useEffect(() => {
    if (!whitelabel) return;
    document.title = whitelabel.title;
    if (whitelabel.faviconUrl)
      document
        .querySelector<HTMLLinkElement>('link[rel="icon"]')
        ?.setAttribute('href', whitelabel.faviconUrl);
  }, [whitelabel]);
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      {children}
    </ThemeProvider>
  );
}

export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      {/* Snackbars belong to the signed-in app (signed-in-app.tsx), not to the login page. */}
      <WhitelabelTheme>{children}</WhitelabelTheme>
    </QueryClientProvider>
  );
}
