import { useMutation } from '@tanstack/react-query';
import type { ProposalAnswerResponse } from '@maillon/common/schemas/appointments';
import { api } from '@/lib/api-client';

export type ProposalDecision = 'accept' | 'refuse';

/** Accepter / Refuser the other date the site proposed for a device (issue 19). */
export function answerSiteProposal({ missionId, technicianId, decision }: { missionId: string; technicianId: string; decision: ProposalDecision }) {
  return api.post<ProposalAnswerResponse>(`/api/technician-mission-data/${missionId}/${technicianId}/site-proposal/${decision}`);
}

/** The caller refreshes the work view (the device's slot and the site's status change). */
export function useAnswerSiteProposal() {
  return useMutation({ mutationFn: answerSiteProposal });
}
