import type { ComponentType, ReactNode } from 'react';
import { BookOpen, Briefcase, Euro, Package, Search, UserRound } from 'lucide-react';
import type { TechnicianTab } from '@maillon/common/enums';
import { preloadable } from '@/lib/preloadable';
import type { TechnicianTabProps } from '@/types/tabs';

interface TabDefinition {
  id: TechnicianTab;
  title: string;
  /** One word for the phone's bottom navigation. */
  shortTitle: string;
  icon: ReactNode;
  /** Key of the counts answer; the profile tab has no badge. */
  countKey?: 'formation' | 'findMissions' | 'applications' | 'revenue' | 'packages';
  inNav: boolean;
  /** The tab's code, loaded on first display or ahead of it (preload). */
  code: { Component: ComponentType<TechnicianTabProps>; preload: () => Promise<unknown> };
}

// Each tab's code, loaded on first display; preloadTechnicianTab starts one early (the tab in the address, while the
// session is being confirmed) so its code and the session arrive side by side, and it renders without suspending.
const applications = preloadable<TechnicianTabProps>(() => import('@/features/applications/components/applications-tab').then((m) => ({ default: m.ApplicationsTab })));

export const TECHNICIAN_TAB_DEFINITIONS: TabDefinition[] = [
  { id: 'find-missions', shortTitle: 'Trouver', title: 'Trouver des missions', icon: <Search />, countKey: 'findMissions', inNav: true, code: preloadable(() => import('@/features/find-missions/components/find-missions-tab').then((m) => ({ default: m.FindMissionsTab }))) },
  { id: 'applications', shortTitle: 'Missions', title: 'Candidatures & Missions', icon: <Briefcase />, countKey: 'applications', inNav: true, code: applications },
  { id: 'formation', shortTitle: 'Former', title: 'Me former', icon: <BookOpen />, countKey: 'formation', inNav: true, code: preloadable(() => import('@/features/training/components/training-tab').then((m) => ({ default: m.TrainingTab }))) },
  { id: 'revenue', shortTitle: 'Revenus', title: 'Revenus & Virements', icon: <Euro />, countKey: 'revenue', inNav: true, code: preloadable(() => import('@/features/revenue/components/revenue-tab').then((m) => ({ default: m.RevenueTab }))) },
  { id: 'packages', shortTitle: 'Colis', title: 'Mes réceptions colis', icon: <Package />, countKey: 'packages', inNav: true, code: preloadable(() => import('@/features/packages/components/packages-tab').then((m) => ({ default: m.PackagesTab }))) },
  { id: 'profile', shortTitle: 'Compte', title: 'Mon compte', icon: <UserRound />, inNav: true, code: preloadable(() => import('@/features/profile/components/profile-tab').then((m) => ({ default: m.ProfileTab }))) },
  { id: 'missions', shortTitle: 'Missions', title: 'Mes missions', icon: <Briefcase />, inNav: false, code: applications },
];

/** Loads a tab's code ahead of its display; resolves when it is in (or could not load: the tab will say so). */
export function preloadTechnicianTab(id: string): Promise<unknown> {
  const definition = TECHNICIAN_TAB_DEFINITIONS.find((t) => t.id === id);
  return definition ? definition.code.preload().catch(() => undefined) : Promise.resolve();
}
