import { TabPlaceholder } from '@/components/layout/dashboard-shell';

export function ModerationTab() {
  return <TabPlaceholder title="Défibrillateurs à modérer" />;
}
