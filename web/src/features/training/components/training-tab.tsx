import { TabPlaceholder } from '@/components/layout/dashboard-shell';
import type { TechnicianTabProps } from '@/types/tabs';

export function TrainingTab(_props: TechnicianTabProps) {
  return <TabPlaceholder title="Me former" />;
}
