import { BrowserRouter } from 'react-router';
import { ToastOutlet } from '@/components/ui/toast-outlet';
import { AppRoutes } from './router';

/**
 * Only what every page needs: the router and the toast outlet. TanStack Query is provided by the
 * dashboards (app/query-provider.tsx) and the toast region loads with the first toast (decision 013).
 */
export function App() {
  return (
    <BrowserRouter>
      <AppRoutes />
      <ToastOutlet />
    </BrowserRouter>
  );
}
