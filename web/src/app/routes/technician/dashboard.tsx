import { lazy, Suspense } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import type { Technician } from '@maillon/common/schemas/technicians';
import { DashboardShell, TabPlaceholder } from '@/components/layout/dashboard-shell';
import { UpdatePrompt } from '@/components/offline/update-prompt';
import { QueryProvider } from '@/app/query-provider';
import { Spinner } from '@/components/ui/feedback';
import { paths } from '@/config/paths';
import { useLogout } from '@/features/auth/api/logout';
import { useTechnicianCounts, type TechnicianCounts } from '@/features/technician-dashboard/api/get-technician-counts';
import { AccountBanners } from '@/features/technician-dashboard/components/account-banners';
import { usePageMeta } from '@/hooks/use-page-meta';
import { countWaitingChanges, OfflineProvider } from '@/lib/offline/offline-provider';
import { fieldDataKeys, useFieldData } from './field-data';
import { RequireRole } from '../require-role';
import { preloadTechnicianTab, TECHNICIAN_TAB_DEFINITIONS } from './tabs';

// The queue's state and refused changes: shown after the page (they are empty most of the time).
const OfflineStatus = lazy(() => import('@/components/offline/sync-banner'));

function countFor(counts: TechnicianCounts | undefined, key: (typeof TECHNICIAN_TAB_DEFINITIONS)[number]['countKey']) {
  if (!counts || !key) return undefined;
  if (key === 'formation') return counts.formation.total - counts.formation.read;
  return counts[key];
}

function TechnicianDashboard({ technician }: { technician: Technician }) {
  const [searchParams] = useSearchParams();
  const tabParam = searchParams.get('tab') ?? 'find-missions';
  const definition = TECHNICIAN_TAB_DEFINITIONS.find((t) => t.id === tabParam);
  usePageMeta({ title: definition?.title ?? 'Espace technicien' });
  const counts = useTechnicianCounts(technician.id);
  const logout = useLogout();
  const queryClient = useQueryClient();
  useFieldData(technician.id);
  // Changes not yet delivered would be lost: logging out asks first.
  const confirmLogout = () => {
    const pending = countWaitingChanges(queryClient);
    const lost = pending === 1 ? '1 modification n’a pas encore été envoyée' : `${pending} modifications n’ont pas encore été envoyées`;
    if (pending > 0 && !window.confirm(`${lost} au serveur. Si vous vous déconnectez maintenant, elles seront perdues. Se déconnecter quand même ?`)) return;
    void logout();
  };

  const items = TECHNICIAN_TAB_DEFINITIONS.filter((t) => t.inNav).map((t) => ({
    id: t.id,
    label: t.title,
    shortLabel: t.shortTitle,
    icon: t.icon,
    href: paths.technician.dashboard.getHref({ tab: t.id }),
    count: countFor(counts.data, t.countKey),
  }));

  return (
    <DashboardShell
      title="Maillon"
      subtitle={`${technician.firstName} ${technician.lastName}`}
      items={items}
      // The "missions" tab (target of a see-mission button) is the applications tab, highlighted as such.
      activeId={tabParam === 'missions' ? 'applications' : tabParam}
      onLogout={confirmLogout}
      bottomNav
    >
      <UpdatePrompt />
      <Suspense fallback={null}>
        <OfflineStatus />
      </Suspense>
      <AccountBanners technician={technician} counts={counts.data} formationHref={paths.technician.dashboard.getHref({ tab: 'formation' })} />
      {definition ? (
        <Suspense fallback={<Spinner />}>
          <definition.code.Component technician={technician} />
        </Suspense>
      ) : (
        <TabPlaceholder title={tabParam} message="Contenu en développement : cet onglet reste à implémenter." />
      )}
    </DashboardShell>
  );
}

// First content (issue 10): the open tab's code starts loading with this route, beside the session check; the router
// shows this route once that tab is in too (app/router.tsx), so the first load reveals the page in one step.
export const initialTabReady = preloadTechnicianTab(new URLSearchParams(window.location.search).get('tab') ?? 'find-missions');

export function TechnicianDashboardRoute() {
  return (
    <QueryProvider>
      <RequireRole role="technician" loginPath={paths.technician.login.getHref()}>
        {(session) =>
          session.technician ? (
            <OfflineProvider userId={session.user.id} technicianId={session.technician.id} keep={fieldDataKeys(session.technician.id)}>
              <TechnicianDashboard technician={session.technician} />
            </OfflineProvider>
          ) : null
        }
      </RequireRole>
    </QueryProvider>
  );
}
