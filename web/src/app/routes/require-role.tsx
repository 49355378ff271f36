import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import type { SessionResponse } from '@maillon/common/schemas/auth';
import { PlainSpinner } from '@/components/ui/plain-spinner';
import { useMe } from '@/features/auth/api/get-me';

/** Route guard: the stored session shows the page at once, /api/auth/me confirms it. */
export function RequireRole({ role, loginPath, children }: { role: 'admin' | 'technician'; loginPath: string; children: (session: SessionResponse) => ReactNode }) {
  const me = useMe();
  if (me.isPending && !me.data) return <PlainSpinner fullHeight />;
  if (me.isError && !me.data) return <Navigate to={loginPath} replace />;
  const session = me.data;
  if (!session || session.user.role !== role) return <Navigate to={loginPath} replace />;
  return <>{children(session)}</>;
}
