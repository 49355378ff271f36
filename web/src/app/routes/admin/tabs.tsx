import { lazy, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import { BookOpen, CheckCircle2, ClipboardList, Euro, HeartPulse, Layers, Settings, Truck, Users } from 'lucide-react';
import type { AdminTab } from '@maillon/common/enums';
import type { AdminCounts } from '@/features/admin-dashboard/api/get-admin-counts';

interface AdminTabDefinition {
  id: AdminTab;
  label: string;
  icon: ReactNode;
  countKey?: keyof AdminCounts;
  Component: LazyExoticComponent<ComponentType>;
}

export const ADMIN_TAB_DEFINITIONS: AdminTabDefinition[] = [
  { id: 'missions-draft', label: 'Suggestions', icon: <ClipboardList />, countKey: 'suggestions', Component: lazy(() => import('@/features/admin-moderation/components/moderation-tab').then((m) => ({ default: m.ModerationTab }))) },
  { id: 'missions-active', label: 'Missions & Lots', icon: <Layers />, countKey: 'missionsLots', Component: lazy(() => import('./missions-tab').then((m) => ({ default: m.MissionsWithPartsTab }))) },
  { id: 'missions-completed', label: 'Missions terminées', icon: <CheckCircle2 />, Component: lazy(() => import('@/features/admin-missions/components/completed-missions-tab').then((m) => ({ default: m.CompletedMissionsTab }))) },
  { id: 'technicians', label: 'Techniciens', icon: <Users />, countKey: 'techniciens', Component: lazy(() => import('@/features/admin-technicians/components/technicians-tab').then((m) => ({ default: m.TechniciansTab }))) },
  { id: 'invoices', label: 'Factures & virements', icon: <Euro />, countKey: 'facturesVirements', Component: lazy(() => import('./invoices-tab').then((m) => ({ default: m.InvoicesAndPayoutsTab }))) },
  { id: 'shipments', label: 'Expéditions', icon: <Truck />, countKey: 'expeditions', Component: lazy(() => import('@/features/admin-shipments/components/shipments-tab').then((m) => ({ default: m.ShipmentsTab }))) },
  { id: 'library', label: 'Librairie apprentissage', icon: <BookOpen />, countKey: 'librairie', Component: lazy(() => import('@/features/admin-library/components/library-tab').then((m) => ({ default: m.LibraryTab }))) },
  { id: 'devices', label: 'Parc DAE', icon: <HeartPulse />, countKey: 'parcDae', Component: lazy(() => import('@/features/admin-devices/components/devices-tab').then((m) => ({ default: m.DevicesTab }))) },
  { id: 'settings', label: 'Réglages', icon: <Settings />, Component: lazy(() => import('@/features/admin-settings/components/settings-tab').then((m) => ({ default: m.SettingsTab }))) },
];
