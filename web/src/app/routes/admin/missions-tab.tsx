import type { AdminBatch } from '@maillon/common/schemas/admin-lots';
import { MissionsTab } from '@/features/admin-missions/components/missions-tab';
import { ProposedParcelButton } from '@/features/admin-shipments/components/proposed-parcel-dialog';

/** « Missions & Lots » with the « Colis proposé » of each lot whose technician is selected (shipments feature), composed here. */
export function MissionsWithPartsTab() {
  return (
    <MissionsTab
      lotActions={(lot: AdminBatch) => (lot.recruitedTechnician ? <ProposedParcelButton batchId={lot.id} title={lot.title} /> : null)}
    />
  );
}
