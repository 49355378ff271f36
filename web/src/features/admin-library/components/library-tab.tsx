import { TabPlaceholder } from '@/components/layout/dashboard-shell';

export function LibraryTab() {
  return <TabPlaceholder title="Librairie apprentissage" />;
}
