import { TabPlaceholder } from '@/components/layout/dashboard-shell';
import type { TechnicianTabProps } from '@/types/tabs';

export function FindMissionsTab(_props: TechnicianTabProps) {
  return <TabPlaceholder title="Trouver des missions" />;
}
