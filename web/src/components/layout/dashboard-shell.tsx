import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { HeartPulse, LogOut } from 'lucide-react';
import { formatCount } from '@maillon/common/format';
import { cn } from '@/lib/cn';
import { Button } from '@/components/ui/button';
import { useToastRegion } from '@/components/ui/toast-outlet';

export interface NavItem {
  id: string;
  label: string;
  icon: ReactNode;
  href: string;
  count?: number | undefined;
  /** The bottom navigation's label (phones): one short word. */
  shortLabel?: string;
}

interface DashboardShellProps {
  title: string;
  subtitle?: ReactNode;
  status?: ReactNode;
  items: NavItem[];
  activeId: string;
  onLogout: () => void;
  /** Phone layout: a top bar and scrollable tab chips instead of the sidebar. */
  mobileNav?: boolean;
  /** Below 768 px the tabs sit in a bottom bar (thumb reach) instead of the chips (decision 023). */
  bottomNav?: boolean;
  headerExtra?: ReactNode;
  children: ReactNode;
}

function CountBadge({ count, active }: { count: number; active: boolean }) {
  return (
    <span
      className={cn(
        'ml-auto min-w-6 shrink-0 rounded-full px-1.5 text-center text-xs font-semibold tabular-nums',
        active ? 'bg-white/25 text-current' : 'bg-muted text-muted-foreground',
      )}
    >
      {formatCount(count)}
    </span>
  );
}

/** The technician's tabs at the bottom of a phone's screen: icons with a short label, count badges, the active one marked. */
function BottomNav({ items, activeId }: { items: NavItem[]; activeId: string }) {
  return (
    <nav aria-label="Onglets" data-bottom-nav className="fixed inset-x-0 bottom-0 z-40 border-t bg-card/95 pb-[env(safe-area-inset-bottom)] backdrop-blur md:hidden">
      <ul className="grid" style={{ gridTemplateColumns: `repeat(${items.length}, minmax(0, 1fr))` }}>
        {items.map((item) => {
          const active = item.id === activeId;
          return (
            <li key={item.id}>
              <Link
                to={item.href}
                aria-current={active ? 'page' : undefined}
                aria-label={item.label}
                className={cn(
                  'relative flex h-16 flex-col items-center justify-center gap-0.5 px-0.5 text-[0.7rem] font-medium leading-tight [&_svg]:size-5',
                  active ? 'text-primary' : 'text-muted-foreground',
                )}
              >
                {active ? <span className="absolute inset-x-3 top-0 h-0.5 rounded-full bg-primary" aria-hidden="true" /> : null}
                <span className="relative">
                  {item.icon}
                  {item.count ? (
                    <span aria-hidden="true" className="absolute -top-1.5 left-3 min-w-4 rounded-full bg-primary px-1 text-center text-[0.625rem] font-semibold leading-4 text-primary-foreground tabular-nums">
                      {item.count > 99 ? '99+' : item.count}
                    </span>
                  ) : null}
                </span>
                <span className="max-w-full truncate" aria-hidden="true">
                  {item.shortLabel ?? item.label}
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

export function DashboardShell({ title, subtitle, status, items, activeId, onLogout, mobileNav = true, bottomNav = false, headerExtra, children }: DashboardShellProps) {
  useToastRegion();
  return (
    <div className={cn('min-h-dvh', mobileNav ? 'lg:grid lg:grid-cols-[16rem_1fr]' : 'xl:grid xl:grid-cols-[16rem_1fr]')}>
      <aside
        className={cn('sticky top-0 hidden h-dvh border-r bg-card', mobileNav ? 'lg:flex lg:flex-col' : 'xl:flex xl:flex-col')}
        aria-label="Navigation principale"
      >
        <div className="flex items-center gap-2 border-b px-5 py-4">
          <HeartPulse className="size-6 text-primary" aria-hidden="true" />
          <div className="min-w-0">
            <p className="truncate font-bold leading-tight">{title}</p>
            {subtitle ? <p className="truncate text-xs text-muted-foreground">{subtitle}</p> : null}
          </div>
        </div>
        {status ? <div className="border-b px-5 py-2">{status}</div> : null}
        <nav className="flex-1 overflow-y-auto p-3">
          <ul className="grid grid-cols-1 gap-1">
            {items.map((item) => {
              const active = item.id === activeId;
              return (
                <li key={item.id}>
                  <Link
                    to={item.href}
                    aria-current={active ? 'page' : undefined}
                    className={cn(
                      'flex items-center gap-3 rounded-md px-3 py-2.5 text-sm font-medium transition-colors [&_svg]:size-4 [&_svg]:shrink-0',
                      active ? 'bg-primary text-primary-foreground' : 'text-foreground/80 hover:bg-muted',
                    )}
                  >
                    {item.icon}
                    <span className="truncate">{item.label}</span>
                    {item.count !== undefined ? <CountBadge count={item.count} active={active} /> : null}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
        <div className="border-t p-3">
          <Button variant="ghost" className="w-full justify-start" onClick={onLogout}>
            <LogOut aria-hidden="true" /> Déconnexion
          </Button>
        </div>
      </aside>

      <div className="flex min-w-0 flex-col">
        {mobileNav ? (
          <header className="sticky top-0 z-30 border-b bg-card/95 backdrop-blur lg:hidden">
            <div className="flex items-center gap-2 px-4 py-3">
              <HeartPulse className="size-6 text-primary" aria-hidden="true" />
              <p className="font-bold">{title}</p>
              <Button variant="ghost" size="icon" className="ml-auto" onClick={onLogout} aria-label="Déconnexion">
                <LogOut aria-hidden="true" />
              </Button>
            </div>
            <nav aria-label={bottomNav ? 'Onglets (tablette)' : 'Onglets'} className={cn('-mb-px gap-1 overflow-x-auto px-3 pb-2', bottomNav ? 'hidden md:flex' : 'flex')}>
              {items.map((item) => {
                const active = item.id === activeId;
                return (
                  <Link
                    key={item.id}
                    to={item.href}
                    aria-current={active ? 'page' : undefined}
                    className={cn(
                      'flex h-10 shrink-0 items-center gap-2 rounded-full border px-3 text-sm font-medium [&_svg]:size-4',
                      active ? 'border-primary bg-primary text-primary-foreground' : 'bg-card text-foreground/80',
                    )}
                  >
                    {item.icon}
                    {item.label}
                    {item.count !== undefined ? <CountBadge count={item.count} active={active} /> : null}
                  </Link>
                );
              })}
            </nav>
          </header>
        ) : null}
        {headerExtra}
        <main className={cn('mx-auto w-full max-w-6xl flex-1 px-4 py-5 sm:px-6 lg:px-8 lg:py-8', bottomNav && 'pb-28 md:pb-5')}>{children}</main>
      </div>
      {bottomNav ? <BottomNav items={items} activeId={activeId} /> : null}
    </div>
  );
}

export function TabPlaceholder({ title, message = 'Contenu en développement' }: { title: string; message?: string }) {
  return (
    <section className="grid gap-3">
      <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
      <div className="rounded-lg border border-dashed bg-card px-6 py-12 text-center text-muted-foreground">{message}</div>
    </section>
  );
}

export function PageHeader({ title, description, actions }: { title: string; description?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="mb-5 flex flex-wrap items-end justify-between gap-3">
      <div className="grid gap-1">
        <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
        {description ? <p className="text-sm text-muted-foreground">{description}</p> : null}
      </div>
      {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
    </div>
  );
}
