import type { FieldValues, Resolver } from 'react-hook-form';

/**
 * A react-hook-form resolver whose validation code (zod, the schema, @hookform/resolvers) is a chunk of its own: the
 * form shows without it, and it loads on the first validation or earlier through preload() (decision 017). It answers
 * exactly as the loaded resolver does; it only waits for it. A failed load is tried again on the next validation.
 */
export function lazyResolver<T extends FieldValues>(load: () => Promise<Resolver<T>>): Resolver<T> & { preload: () => Promise<Resolver<T>> } {
  let loading: Promise<Resolver<T>> | undefined;
  const preload = () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
  const resolver: Resolver<T> = async (values, context, options) => (await preload())(values, context, options);
  return Object.assign(resolver, { preload });
}
