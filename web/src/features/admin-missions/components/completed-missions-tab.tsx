import { TabPlaceholder } from '@/components/layout/dashboard-shell';

export function CompletedMissionsTab() {
  return <TabPlaceholder title="Missions terminées" />;
}
