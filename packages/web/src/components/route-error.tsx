import { Component, useEffect, useState, type ErrorInfo, type ReactNode } from 'react';
import { useRouteError } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { claimChunkReload, isChunkLoadError } from '../lib/chunk-reload.ts';
import { Loading } from './loading.tsx';

/**
 * What an error inside a page shows (always in words a person can act on): "an
 * error occurred, please reload the page" in the user's language, with a reload and a way back to
 * the list; never React Router's developer page. A chunk of an older build that cannot be loaded
 * reloads the page once by itself instead (lib/chunk-reload.ts).
 */
export function ErrorFallbackContent({ error, back = false }: { error: unknown; back?: boolean }) {
  const { t } = useTranslation();
  const [reloading] = useState(
    () => isChunkLoadError(error) && claimChunkReload({ storage: window.sessionStorage, now: Date.now() }),
  );
  useEffect(() => {
    if (reloading) window.location.reload();
  }, [reloading]);
  if (reloading) return <Loading />;
  return (
    <Box sx={{ py: 3 }} data-testid="error-fallback">
      <Alert severity="error" sx={{ mb: 2 }}>
        {t('common.fallback.title')}
      </Alert>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
        <Button variant="contained" onClick={() => window.location.reload()}>
          {t('common.fallback.reload')}
        </Button>
        {back && (
          // A full load: after a failed chunk the tab's build may be outdated.
          <Button variant="outlined" href="/devices">
            {t('common.fallback.back')}
          </Button>
        )}
      </Stack>
    </Box>
  );
}

/** The error element of a route: every level of the route tree has one (app/router.tsx). */
export function RouteError({ back = false }: { back?: boolean }) {
  const error = useRouteError();
  useEffect(() => console.error(error), [error]);
  return <ErrorFallbackContent error={error} back={back} />;
}

/**
 * The same for routes a page declares itself (`<Routes>` inside a page, which route error
 * elements do not reach below the page): the page around it stays. A change of `resetKey` (the
 * location) clears the error, so navigating on shows the next page.
 */
export class PageErrorBoundary extends Component<
  { children: ReactNode; resetKey: string },
  { error: unknown; failedAt: string | null }
> {
  state: { error: unknown; failedAt: string | null } = { error: null, failedAt: null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  static getDerivedStateFromProps(
    props: { resetKey: string },
    state: { error: unknown; failedAt: string | null },
  ) {
    if (state.error === null) return null;
    if (state.failedAt === null) return { failedAt: props.resetKey };
    return state.failedAt === props.resetKey ? null : { error: null, failedAt: null };
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  render() {
    if (this.state.error === null) return this.props.children;
    return <ErrorFallbackContent error={this.state.error} back />;
  }
}
