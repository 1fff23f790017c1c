import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './lib/i18n.ts';
import { ErrorFallback } from './components/error-fallback.tsx';
import { Providers } from './app/providers.tsx';
import { AppRouter } from './app/router.tsx';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ErrorFallback>
      <Providers>
        <AppRouter />
      </Providers>
    </ErrorFallback>
  </StrictMode>,
);
