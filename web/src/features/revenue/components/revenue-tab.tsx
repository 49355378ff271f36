import { TabPlaceholder } from '@/components/layout/dashboard-shell';
import type { TechnicianTabProps } from '@/types/tabs';

export function RevenueTab(_props: TechnicianTabProps) {
  return <TabPlaceholder title="Revenus & Virements" />;
}
