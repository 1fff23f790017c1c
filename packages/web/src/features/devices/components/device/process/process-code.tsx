import { use, useEffect, type ComponentType, type ReactPromise } from 'react';
import { usePrefetchProcess } from '../../../api/process.ts';

/** A promise that notes its outcome in the fields React's `use()` reads. */
type TrackedPromise<T> = Promise<T> & { status?: 'fulfilled' | 'rejected'; value?: T; reason?: unknown };

/**
 * Loads a module once. The promise notes its outcome as React's `use()` reads it, so a component
 * whose code has already loaded renders at once. (`React.lazy` suspends on its first render even
 * then, and React shows content that replaces a fallback only 300 ms after the fallback appeared.)
 */
function loadOnce<T>(load: () => Promise<T>): () => ReactPromise<T> {
  let loading: TrackedPromise<T> | undefined;
  return () => {
    if (!loading) {
      const promise: TrackedPromise<T> = load();
      promise.then(
        (value) => {
          promise.status = 'fulfilled';
          promise.value = value;
        },
        (reason: unknown) => {
          promise.status = 'rejected';
          promise.reason = reason;
        },
      );
      loading = promise;
    }
    return loading as ReactPromise<T>;
  };
}

/**
 * A component of a module loaded on demand: suspends (inside a Suspense boundary) while its code
 * loads, renders at once when it already has.
 */
function onDemand<P extends object>(load: () => ReactPromise<{ default: ComponentType<P> }>) {
  return function OnDemand(props: P) {
    const { default: Component } = use(load());
    return <Component {...props} />;
  };
}

// The process page's code, loaded on demand (ECharts alone is about 470 kB): the device pages
// start loading it as soon as the process page is the target, alongside the device.
export const loadProcessPage = loadOnce(() => import('./process-page.tsx'));
export const loadProcessChart = loadOnce(() => import('./process-chart.tsx'));
export const ProcessPage = onDemand(loadProcessPage);
export const ProcessChart = onDemand(loadProcessChart);

/**
 * Opened at its process page, the curve (megabytes) and the page's code load alongside the device
 * instead of after it: the device pages (app/routes) call this before the device has loaded.
 */
export function usePreloadProcessPage(deviceId: number, enabled: boolean) {
  usePrefetchProcess(deviceId, enabled);
  useEffect(() => {
    // A failure to load shows where the code is rendered (the error boundary), not here.
    if (enabled) Promise.all([loadProcessPage(), loadProcessChart()]).catch(() => {});
  }, [enabled]);
}
