import { TabPlaceholder } from '@/components/layout/dashboard-shell';
import type { TechnicianTabProps } from '@/types/tabs';

export function PackagesTab(_props: TechnicianTabProps) {
  return <TabPlaceholder title="Mes réceptions colis" />;
}
