import { useEffect, useMemo, type ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider, createTheme } from '@mui/material/styles';
import { useWhitelabel } from '../lib/whitelabel.ts';

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } },
});

/** Theme, title and favicon follow the white-label the server reports. */
function WhitelabelTheme({ children }: { children: ReactNode }) {
  const { data: whitelabel } = useWhitelabel();
  const theme = useMemo(
    () =>
      createTheme({
        palette: {
          primary: { main: whitelabel?.theme.primary ?? '#0b5394' },
          secondary: { main: whitelabel?.theme.secondary ?? '#e69138' },
        },
      }),
    [whitelabel],
  );
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
