import type { LotRadius, LotSort } from '@maillon/common/lot-rules';
import { qs } from '@/lib/api-client';

export const LOTS_PAGE_SIZE = 20;

export interface AvailableLotsFilters {
  department: string;
  tag: string;
  search: string;
  /** '' : the server's default (nearest first when the address is known). */
  sort: LotSort | '';
  /** '' : « Tous » (no radius). */
  radius: `${LotRadius}` | '';
}

export const NO_LOT_FILTERS: AvailableLotsFilters = { department: '', tag: '', search: '', sort: '', radius: '' };

/** The address of one page of lots open to applications (also read early by the entry, app/early-reads.ts). */
export function availableLotsPath(technicianId: string, filters: AvailableLotsFilters, offset: number): string {
  return `/api/mission-batches/available-for-application${qs({ technicianId, ...filters, limit: LOTS_PAGE_SIZE, offset })}`;
}
