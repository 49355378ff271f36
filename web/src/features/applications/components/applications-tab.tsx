import { TabPlaceholder } from '@/components/layout/dashboard-shell';
import type { TechnicianTabProps } from '@/types/tabs';

export function ApplicationsTab(_props: TechnicianTabProps) {
  return <TabPlaceholder title="Candidatures & Missions" />;
}
