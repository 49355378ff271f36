import { zodResolver } from '@hookform/resolvers/zod';
import {
  changePasswordFormSchema,
  updateAddressSchema,
  updateBankingSchema,
  updateCommentsSchema,
  updatePersonalSchema,
  updateProfessionalSchema,
  updateRelayPointSchema,
} from '@maillon/common/schemas/profile';
import '@/lib/zod-locale';

/** The profile forms' validation: zod and the schemas, a chunk loaded after the tab has shown (form-resolvers.ts). */
export const profileResolvers = {
  personal: zodResolver(updatePersonalSchema),
  password: zodResolver(changePasswordFormSchema),
  professional: zodResolver(updateProfessionalSchema),
  address: zodResolver(updateAddressSchema),
  banking: zodResolver(updateBankingSchema),
  relayPoint: zodResolver(updateRelayPointSchema),
  comments: zodResolver(updateCommentsSchema),
};
