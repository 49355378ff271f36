import { TabPlaceholder } from '@/components/layout/dashboard-shell';
import type { TechnicianTabProps } from '@/types/tabs';

export function ProfileTab(_props: TechnicianTabProps) {
  return <TabPlaceholder title="Mon compte" />;
}
