import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './lib/i18n.ts';
import { installChunkReload } from './lib/chunk-reload.ts';
import { ErrorFallback } from './components/error-fallback.tsx';
import { Providers, queryClient } from './app/providers.tsx';
import { AppRouter } from './app/router.tsx';
import { startLoading } from './app/start-loading.ts';

// An open tab of an older build reloads once when a chunk it asks for is gone.
installChunkReload();
// The page's code, the user, the look-ups and the page's data start now, side by side.
startLoading(queryClient, window.location);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ErrorFallback>
      <Providers>
        <AppRouter />
      </Providers>
    </ErrorFallback>
  </StrictMode>,
);
