import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PayoutSettings } from '@maillon/common/schemas/payout-batches';
import { api } from '@/lib/api-client';
import { payoutsRootKey } from './keys';

export function getPayoutSettings(): Promise<PayoutSettings> {
  return api.get<PayoutSettings>('/api/payout-batches/settings');
}

/** Whether CHARITY_IBAN / CHARITY_BIC are configured: without them no SEPA file can be made. */
export const payoutSettingsQueryOptions = () => queryOptions({ queryKey: [...payoutsRootKey, 'settings'] as const, queryFn: getPayoutSettings, staleTime: Infinity });

export function usePayoutSettings() {
  return useQuery(payoutSettingsQueryOptions());
}
