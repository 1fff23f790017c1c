import { SnackbarProvider } from 'notistack';
import AppShell from './app-shell.tsx';

/**
 * The signed-in app with what only it needs: snackbars are shown by its pages alone, so notistack
 * loads with this chunk and not with the login page (issue 4).
 */
export default function SignedInApp() {
  return (
    <SnackbarProvider maxSnack={3} anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}>
      <AppShell />
    </SnackbarProvider>
  );
}
