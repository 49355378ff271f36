import { TabPlaceholder } from '@/components/layout/dashboard-shell';

export function SettingsTab() {
  return <TabPlaceholder title="Réglages" />;
}
