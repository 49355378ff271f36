import type { AdminBatch } from '@maillon/common/schemas/admin-lots';
import { MissionsTab } from '@/features/admin-missions/components/missions-tab';
import { useLotsPartsProposals } from '@/features/admin-shipments/api/get-parts-proposals';
import { ParcelDueBadge, ProposedParcelButton } from '@/features/admin-shipments/components/proposed-parcel-dialog';

/**
 * On the lot cards of a page whose technician is selected, the « Colis proposé » of the shipments feature and its badge
 * (late / to ship before / shipped), from one read of those lots' proposals.
 */
function useProposedParcelActions(lots: readonly AdminBatch[]) {
  const recruited = lots.filter((lot) => lot.recruitedTechnician).map((lot) => lot.id);
  const proposals = useLotsPartsProposals(recruited);
  const byLot = new Map((proposals.data?.items ?? []).map((p) => [p.batchId, p]));
  return (lot: AdminBatch) => {
    if (!lot.recruitedTechnician) return null;
    const proposal = byLot.get(lot.id);
    return (
      <>
        <ProposedParcelButton batchId={lot.id} title={lot.title} />
        {proposal && proposal.itemCount > 0 ? <ParcelDueBadge parts={proposal} /> : null}
      </>
    );
  };
}

/** « Missions & Lots » with the shipments feature's parcel actions on each lot card, composed here. */
export function MissionsWithPartsTab() {
  return <MissionsTab useLotActions={useProposedParcelActions} />;
}
