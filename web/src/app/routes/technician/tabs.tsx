import { lazy, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import { BookOpen, Briefcase, Euro, Package, Search, UserRound } from 'lucide-react';
import type { TechnicianTab } from '@maillon/common/enums';
import type { TechnicianTabProps } from '@/types/tabs';

interface TabDefinition {
  id: TechnicianTab;
  title: string;
  icon: ReactNode;
  /** Key of the counts answer; the profile tab has no badge. */
  countKey?: 'formation' | 'findMissions' | 'applications' | 'revenue' | 'packages';
  inNav: boolean;
  Component: LazyExoticComponent<ComponentType<TechnicianTabProps>>;
}

const applications = lazy(() => import('@/features/applications/components/applications-tab').then((m) => ({ default: m.ApplicationsTab })));

export const TECHNICIAN_TAB_DEFINITIONS: TabDefinition[] = [
  { id: 'find-missions', title: 'Trouver des missions', icon: <Search />, countKey: 'findMissions', inNav: true, Component: lazy(() => import('@/features/find-missions/components/find-missions-tab').then((m) => ({ default: m.FindMissionsTab }))) },
  { id: 'applications', title: 'Candidatures & Missions', icon: <Briefcase />, countKey: 'applications', inNav: true, Component: applications },
  { id: 'formation', title: 'Me former', icon: <BookOpen />, countKey: 'formation', inNav: true, Component: lazy(() => import('@/features/training/components/training-tab').then((m) => ({ default: m.TrainingTab }))) },
  { id: 'revenue', title: 'Revenus & Virements', icon: <Euro />, countKey: 'revenue', inNav: true, Component: lazy(() => import('@/features/revenue/components/revenue-tab').then((m) => ({ default: m.RevenueTab }))) },
  { id: 'packages', title: 'Mes réceptions colis', icon: <Package />, countKey: 'packages', inNav: true, Component: lazy(() => import('@/features/packages/components/packages-tab').then((m) => ({ default: m.PackagesTab }))) },
  { id: 'profile', title: 'Mon compte', icon: <UserRound />, inNav: true, Component: lazy(() => import('@/features/profile/components/profile-tab').then((m) => ({ default: m.ProfileTab }))) },
  { id: 'missions', title: 'Mes missions', icon: <Briefcase />, inNav: false, Component: applications },
];
