import { TabPlaceholder } from '@/components/layout/dashboard-shell';

export function MissionsTab() {
  return <TabPlaceholder title="Missions & Lots" />;
}
