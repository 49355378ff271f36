import type { Resolver } from 'react-hook-form';
import type {
  ChangePasswordForm,
  UpdateAddress,
  UpdateBanking,
  UpdateComments,
  UpdatePersonal,
  UpdateProfessional,
  UpdateRelayPoint,
} from '@maillon/common/schemas/profile';
import { lazyResolver } from '@/lib/lazy-resolver';

// The cards show at once; zod and the profile schemas (zod-resolvers.ts) follow in their own chunk, which the tab asks
// for once it has shown so that it is in before the first save (decision 017).
const loadResolvers = () => import('./zod-resolvers').then((m) => m.profileResolvers);
type Resolvers = Awaited<ReturnType<typeof loadResolvers>>;
const lazy = <T extends Record<string, unknown>>(pick: (resolvers: Resolvers) => Resolver<T>) => lazyResolver<T>(() => loadResolvers().then(pick));

export const preloadProfileResolvers = (): Promise<unknown> => loadResolvers().catch(() => undefined);

export const personalResolver = lazy<UpdatePersonal>((r) => r.personal);
export const passwordResolver = lazy<ChangePasswordForm>((r) => r.password);
export const professionalResolver = lazy<UpdateProfessional>((r) => r.professional);
export const addressResolver = lazy<UpdateAddress>((r) => r.address);
export const bankingResolver = lazy<UpdateBanking>((r) => r.banking);
export const relayPointResolver = lazy<UpdateRelayPoint>((r) => r.relayPoint);
export const commentsResolver = lazy<UpdateComments>((r) => r.comments);
