import { TabPlaceholder } from '@/components/layout/dashboard-shell';

export function TechniciansTab() {
  return <TabPlaceholder title="Techniciens" />;
}
