import type { ComponentType, ReactNode } from 'react';
import { BookOpen, Briefcase, Euro, Package, Search, UserRound } from 'lucide-react';
import type { TechnicianTab } from '@maillon/common/enums';
import { preloadable } from '@/lib/preloadable';
import type { TechnicianTabProps } from '@/types/tabs';

interface TabDefinition {
  id: TechnicianTab;
  title: string;
  icon: ReactNode;
  /** Key of the counts answer; the profile tab has no badge. */
  countKey?: 'formation' | 'findMissions' | 'applications' | 'revenue' | 'packages';
  inNav: boolean;
  Component: ComponentType<TechnicianTabProps>;
}

// Each tab's code, loaded on first display; preloadTechnicianTab starts one early (the tab in the address, while the
// session is being confirmed) so its code and the session arrive side by side, and it renders without suspending.
const tabs = {
  'find-missions': preloadable(() => import('@/features/find-missions/components/find-missions-tab').then((m) => ({ default: m.FindMissionsTab }))),
  applications: preloadable(() => import('@/features/applications/components/applications-tab').then((m) => ({ default: m.ApplicationsTab }))),
  formation: preloadable(() => import('@/features/training/components/training-tab').then((m) => ({ default: m.TrainingTab }))),
  revenue: preloadable(() => import('@/features/revenue/components/revenue-tab').then((m) => ({ default: m.RevenueTab }))),
  packages: preloadable(() => import('@/features/packages/components/packages-tab').then((m) => ({ default: m.PackagesTab }))),
  profile: preloadable(() => import('@/features/profile/components/profile-tab').then((m) => ({ default: m.ProfileTab }))),
} satisfies Partial<Record<TechnicianTab, { Component: ComponentType<TechnicianTabProps>; preload: () => Promise<unknown> }>>;

/** Loads a tab's code ahead of its display; resolves when it is in (or could not load: the tab will say so). */
export function preloadTechnicianTab(id: string): Promise<unknown> {
  const tab = id === 'missions' ? 'applications' : id;
  if (!(tab in tabs)) return Promise.resolve();
  return tabs[tab as keyof typeof tabs].preload().catch(() => undefined);
}

export const TECHNICIAN_TAB_DEFINITIONS: TabDefinition[] = [
  { id: 'find-missions', title: 'Trouver des missions', icon: <Search />, countKey: 'findMissions', inNav: true, Component: tabs['find-missions'].Component },
  { id: 'applications', title: 'Candidatures & Missions', icon: <Briefcase />, countKey: 'applications', inNav: true, Component: tabs.applications.Component },
  { id: 'formation', title: 'Me former', icon: <BookOpen />, countKey: 'formation', inNav: true, Component: tabs.formation.Component },
  { id: 'revenue', title: 'Revenus & Virements', icon: <Euro />, countKey: 'revenue', inNav: true, Component: tabs.revenue.Component },
  { id: 'packages', title: 'Mes réceptions colis', icon: <Package />, countKey: 'packages', inNav: true, Component: tabs.packages.Component },
  { id: 'profile', title: 'Mon compte', icon: <UserRound />, inNav: true, Component: tabs.profile.Component },
  { id: 'missions', title: 'Mes missions', icon: <Briefcase />, inNav: false, Component: tabs.applications.Component },
];
