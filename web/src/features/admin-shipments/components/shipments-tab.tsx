import { TabPlaceholder } from '@/components/layout/dashboard-shell';

export function ShipmentsTab() {
  return <TabPlaceholder title="Expéditions" />;
}
