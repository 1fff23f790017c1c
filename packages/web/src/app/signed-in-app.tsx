import { useEffect } from 'react';
import { enqueueSnackbar, SnackbarProvider } from 'notistack';
import { setMutationErrorNotifier } from '../lib/mutation-errors.ts';
import AppShell from './app-shell.tsx';

/**
 * The signed-in app with what only it needs: snackbars are shown by its pages alone, so notistack
 * loads with this chunk and not with the login page.
 */
export default function SignedInApp() {
  // Failed mutations show as error toasts (the QueryClient's MutationCache, app/providers.tsx).
  useEffect(() => setMutationErrorNotifier((message) => enqueueSnackbar(message, { variant: 'error' })), []);
  return (
    <SnackbarProvider maxSnack={3} anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}>
      <AppShell />
    </SnackbarProvider>
  );
}
