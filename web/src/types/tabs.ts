import type { Technician } from '@maillon/common/schemas/technicians';

/** Every technician tab receives the signed-in technician (fresh from /api/auth/me). */
export interface TechnicianTabProps {
  technician: Technician;
}
