import { createBrowserRouter } from 'react-router';
import { Spinner } from '@/components/ui/feedback';
import { paths } from '@/config/paths';
import { LandingRoute } from './routes/landing';
import { NotFoundRoute } from './routes/not-found';

const fallback = <Spinner className="min-h-dvh" />;

/** Areas are split: a technician never downloads the admin code and vice versa. */
export const router = createBrowserRouter([
  { path: paths.home.path, element: <LandingRoute /> },
  {
    path: paths.technician.login.path,
    lazy: async () => ({ Component: (await import('./routes/technician/login')).TechnicianLoginRoute }),
    hydrateFallbackElement: fallback,
  },
  {
    path: paths.technician.register.path,
    lazy: async () => ({ Component: (await import('./routes/technician/register')).TechnicianRegisterRoute }),
    hydrateFallbackElement: fallback,
  },
  {
    path: paths.technician.resetPassword.path,
    lazy: async () => ({ Component: (await import('./routes/technician/reset-password')).ResetPasswordRoute }),
    hydrateFallbackElement: fallback,
  },
  ...['/technician', paths.technician.dashboard.path].map((path) => ({
    path,
    lazy: async () => ({ Component: (await import('./routes/technician/dashboard')).TechnicianDashboardRoute }),
    hydrateFallbackElement: fallback,
  })),
  {
    path: paths.admin.login.path,
    lazy: async () => ({ Component: (await import('./routes/admin/login')).AdminLoginRoute }),
    hydrateFallbackElement: fallback,
  },
  ...['/admin', paths.admin.dashboard.path].map((path) => ({
    path,
    lazy: async () => ({ Component: (await import('./routes/admin/dashboard')).AdminDashboardRoute }),
    hydrateFallbackElement: fallback,
  })),
  { path: '*', element: <NotFoundRoute /> },
]);
