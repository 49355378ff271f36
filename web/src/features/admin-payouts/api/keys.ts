/** Everything the SEPA batches screen reads lives under this prefix: one invalidation refreshes it all. */
export const payoutsRootKey = ['admin', 'payouts'] as const;
