import type { AdminBatch } from '@maillon/common/schemas/admin-lots';
import { MissionsTab } from '@/features/admin-missions/components/missions-tab';
import { usePartsProposals } from '@/features/admin-shipments/api/get-parts-proposals';
import { ParcelDueBadge, ProposedParcelButton } from '@/features/admin-shipments/components/proposed-parcel-dialog';

/**
 * « Missions & Lots » with, on each lot whose technician is selected, the « Colis proposé » of the shipments feature and
 * its badge (late / to ship before / shipped) from one read of every lot's proposal, composed here.
 */
export function MissionsWithPartsTab() {
  const proposals = usePartsProposals();
  const byLot = new Map((proposals.data ?? []).map((p) => [p.batchId, p]));
  return (
    <MissionsTab
      lotActions={(lot: AdminBatch) => {
        if (!lot.recruitedTechnician) return null;
        const proposal = byLot.get(lot.id);
        return (
          <>
            <ProposedParcelButton batchId={lot.id} title={lot.title} />
            {proposal && proposal.itemCount > 0 ? <ParcelDueBadge parts={proposal} /> : null}
          </>
        );
      }}
    />
  );
}
