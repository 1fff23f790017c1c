import { use, type ComponentType, type ReactPromise } from 'react';

/** A promise that notes its outcome in the fields React's `use()` reads. */
type TrackedPromise<T> = Promise<T> & { status?: 'fulfilled' | 'rejected'; value?: T; reason?: unknown };

/**
 * Loads a module once. The promise notes its outcome as React's `use()` reads it, so a component
 * whose code has already loaded renders at once. (`React.lazy` suspends on its first render even
 * then, and React shows content that replaces a fallback only 300 ms after the fallback appeared.)
 */
export function loadOnce<T>(load: () => Promise<T>): () => ReactPromise<T> {
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
export function onDemand<P extends object>(load: () => ReactPromise<{ default: ComponentType<P> }>) {
  return function OnDemand(props: P) {
    const { default: Component } = use(load());
    return <Component {...props} />;
  };
}
