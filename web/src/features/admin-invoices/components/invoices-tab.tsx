import { TabPlaceholder } from '@/components/layout/dashboard-shell';

export function InvoicesTab() {
  return <TabPlaceholder title="Factures & virements" />;
}
