import { Suspense } from 'react';
import { useSearchParams } from 'react-router';
import { MonitorX } from 'lucide-react';
import { DashboardShell, TabPlaceholder } from '@/components/layout/dashboard-shell';
import { QueryProvider } from '@/app/query-provider';
import { Spinner } from '@/components/ui/feedback';
import { NativeSelect } from '@/components/ui/input';
import { paths } from '@/config/paths';
import { useAdminCounts } from '@/features/admin-dashboard/api/get-admin-counts';
import { usePublicConfig } from '@/features/auth/api/get-public-config-query';
import { useLogout } from '@/features/auth/api/logout';
import { useMediaQuery } from '@/hooks/use-media-query';
import { usePageMeta } from '@/hooks/use-page-meta';
import { RequireRole } from '../require-role';
import { ADMIN_TAB_DEFINITIONS } from './tabs';

function SystemsStatus() {
  return (
    <p className="flex items-center gap-2 text-xs font-medium text-success">
      <span className="relative flex size-2.5">
        <span className="absolute inline-flex size-full animate-ping rounded-full bg-success opacity-60" />
        <span className="relative inline-flex size-2.5 rounded-full bg-success" />
      </span>
      Systèmes Opérationnels
    </p>
  );
}

function AdminDashboard() {
  const [searchParams] = useSearchParams();
  const tab = searchParams.get('tab') ?? 'missions-draft';
  const definition = ADMIN_TAB_DEFINITIONS.find((t) => t.id === tab);
  usePageMeta({ title: definition ? `${definition.label} · Administration` : 'Administration' });
  const counts = useAdminCounts();
  const config = usePublicConfig();
  const logout = useLogout();
  const wide = useMediaQuery('(min-width: 1280px)');

  const items = ADMIN_TAB_DEFINITIONS.map((t) => ({
    id: t.id,
    label: t.label,
    icon: t.icon,
    href: paths.admin.dashboard.getHref({ tab: t.id }),
    count: t.countKey ? counts.data?.[t.countKey] : undefined,
  }));

  const tabSelect = wide ? null : (
    <div className="flex items-center gap-3 border-b bg-card px-6 py-3">
      <p className="font-bold">Administration</p>
      <SystemsStatus />
      <label htmlFor="admin-tab-select" className="sr-only">
        Onglet
      </label>
      <NativeSelect
        id="admin-tab-select"
        className="ml-auto w-72"
        value={definition ? tab : ''}
        onChange={(event) => {
          // Spec: the dropdown reloads the page with the tab parameter.
          window.location.assign(paths.admin.dashboard.getHref({ tab: event.target.value }));
        }}
      >
        {definition ? null : <option value="">Choisir un onglet</option>}
        {items.map((item) => (
          <option key={item.id} value={item.id}>
            {item.label}
            {item.count !== undefined ? ` (${item.count})` : ''}
          </option>
        ))}
      </NativeSelect>
    </div>
  );

  return (
    <DashboardShell
      title="Administration"
      subtitle={config.data?.charityName}
      status={<SystemsStatus />}
      items={items}
      activeId={tab}
      onLogout={logout}
      mobileNav={false}
      headerExtra={tabSelect}
    >
      {definition ? (
        <Suspense fallback={<Spinner />}>
          <definition.Component />
        </Suspense>
      ) : (
        <TabPlaceholder title={tab} message="Contenu en développement" />
      )}
    </DashboardShell>
  );
}

export function AdminDashboardRoute() {
  const desktop = useMediaQuery('(min-width: 1024px)');
  usePageMeta({ title: 'Administration' });
  if (!desktop) {
    return (
      <main className="grid min-h-dvh place-items-center px-6 text-center">
        <div className="grid max-w-sm justify-items-center gap-3">
          <MonitorX className="size-10 text-primary" aria-hidden="true" />
          <p className="text-lg font-semibold">Administration non disponible - L'administration est disponible exclusivement depuis un ordinateur</p>
        </div>
      </main>
    );
  }
  return (
    <QueryProvider>
      <RequireRole role="admin" loginPath={paths.admin.login.getHref()}>
        {() => <AdminDashboard />}
      </RequireRole>
    </QueryProvider>
  );
}
