import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router';
import { PlainSpinner } from '@/components/ui/plain-spinner';
import { ADMIN_DASHBOARD_PATHS, paths, TECHNICIAN_DASHBOARD_PATHS } from '@/config/paths';
import { preloadable } from '@/lib/preloadable';
import { RouteErrorBoundary } from './route-error-boundary';
import { LandingRoute } from './routes/landing';
import { NotFoundRoute } from './routes/not-found';

// Declarative routes with React.lazy: the data router (loaders, actions, fetchers) is not used and weighs ~15 KB gzip.
const TechnicianLoginRoute = lazy(() => import('./routes/technician/login').then((m) => ({ default: m.TechnicianLoginRoute })));
const TechnicianRegisterRoute = lazy(() =>
  import('./routes/technician/register').then((m) => ({ default: m.TechnicianRegisterRoute })),
);
const ResetPasswordRoute = lazy(() =>
  import('./routes/technician/reset-password').then((m) => ({ default: m.ResetPasswordRoute })),
);
const technicianDashboard = preloadable(async () => {
  const { TechnicianDashboardRoute: Route, initialTabReady } = await import('./routes/technician/dashboard');
  await initialTabReady;
  return { default: Route };
});
const TechnicianDashboardRoute = technicianDashboard.Component;

const SiteVisitRoute = lazy(() => import('./routes/site-visit').then((m) => ({ default: m.SiteVisitRoute })));
const VisitReportRoute = lazy(() => import('./routes/technician/visit-report').then((m) => ({ default: m.VisitReportRoute })));

const AdminLoginRoute = lazy(() => import('./routes/admin/login').then((m) => ({ default: m.AdminLoginRoute })));
const AdminDashboardRoute = lazy(() => import('./routes/admin/dashboard').then((m) => ({ default: m.AdminDashboardRoute })));

/**
 * First content (issue 10): on the technician dashboard's address the entry starts its code at once; the promise
 * settles when it is in (or failed: the route then loads as usual).
 */
export function preloadRoute(pathname: string): Promise<unknown> {
  if (!TECHNICIAN_DASHBOARD_PATHS.includes(pathname)) return Promise.resolve();
  return technicianDashboard.preload().catch(() => undefined);
}

/**
 * Areas are split: a technician never downloads the admin code and vice versa. Navigations run in a transition,
 * so the current page stays until the next one's chunk has loaded; the spinner shows only on a first load.
 */
export function AppRoutes() {
  return (
    <RouteErrorBoundary>
      <Suspense fallback={<PlainSpinner fullHeight />}>
        <Routes>
          <Route path={paths.home.path} element={<LandingRoute />} />
          <Route path={paths.technician.login.path} element={<TechnicianLoginRoute />} />
          <Route path={paths.technician.register.path} element={<TechnicianRegisterRoute />} />
          <Route path={paths.technician.resetPassword.path} element={<ResetPasswordRoute />} />
          {TECHNICIAN_DASHBOARD_PATHS.map((path) => (
            <Route key={path} path={path} element={<TechnicianDashboardRoute />} />
          ))}
          <Route path={paths.siteVisit.path} element={<SiteVisitRoute />} />
          <Route path={paths.technician.visitReport.path} element={<VisitReportRoute />} />
          <Route path={paths.admin.login.path} element={<AdminLoginRoute />} />
          {ADMIN_DASHBOARD_PATHS.map((path) => (
            <Route key={path} path={path} element={<AdminDashboardRoute />} />
          ))}
          <Route path="*" element={<NotFoundRoute />} />
        </Routes>
      </Suspense>
    </RouteErrorBoundary>
  );
}
