import { lazy, type ComponentType } from 'react';

/**
 * A lazily loaded component that can be asked to load ahead of its first display. Once its code is in, it renders
 * directly instead of suspending: a Suspense boundary that suspends shows its fallback and React then holds the content
 * back for a moment (reveal throttling), which is what preloading is meant to avoid on a first load (issue 10).
 */
export function preloadable<P extends object>(loader: () => Promise<{ default: ComponentType<P> }>) {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  const preload = () =>
    (loading ??= loader().then(
      (module) => {
        loaded = module.default;
        return module;
      },
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
  const Lazy = lazy(preload);
  function Preloadable(props: P) {
    const Loaded = loaded;
    return Loaded ? <Loaded {...props} /> : <Lazy {...props} />;
  }
  return { Component: Preloadable, preload };
}
