import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminLibraryRoutes } from './admin-library/admin-library.routes';
import { adminLotsRoutes } from './admin-lots/admin-lots.routes';
import { adminMissionsRoutes } from './admin-missions/admin-missions.routes';
import { adminShipmentsRoutes } from './admin-shipments/admin-shipments.routes';
import { adminTechniciansRoutes } from './admin-technicians/admin-technicians.routes';
import { applicationsRoutes } from './applications/applications.routes';
import { appointmentsRoutes } from './appointments/appointments.routes';
import { authRoutes } from './auth/auth.routes';
import { dashboardRoutes } from './dashboard/dashboard.routes';
import { devicesRoutes } from './devices/devices.routes';
import { fieldWorkRoutes } from './field-work/field-work.routes';
import { filesRoutes } from './files/files.routes';
import { learningResourcesRoutes } from './learning-resources/learning-resources.routes';
import { missionBatchesRoutes } from './mission-batches/mission-batches.routes';
import { moneyRoutes } from './money/money.routes';
import { parcelsRoutes } from './parcels/parcels.routes';
import { partsRoutes } from './parts/parts.routes';
import { payoutBatchesRoutes } from './payout-batches/payout-batches.routes';
import { settingsRoutes } from './settings/settings.routes';
import { statementsRoutes } from './statements/statements.routes';
import { techniciansRoutes } from './technicians/technicians.routes';
import { visitReportsRoutes } from './visit-reports/visit-reports.routes';

/** Every API module, registered by buildApp. Each module owns distinct paths. */
export const apiModules: FastifyPluginAsyncZod[] = [
  authRoutes,
  dashboardRoutes,
  filesRoutes,
  techniciansRoutes,
  adminTechniciansRoutes,
  learningResourcesRoutes,
  adminLibraryRoutes,
  missionBatchesRoutes,
  adminLotsRoutes,
  applicationsRoutes,
  fieldWorkRoutes,
  parcelsRoutes,
  adminShipmentsRoutes,
  moneyRoutes,
  payoutBatchesRoutes,
  statementsRoutes,
  adminMissionsRoutes,
  settingsRoutes,
  appointmentsRoutes,
  devicesRoutes,
  visitReportsRoutes,
  partsRoutes,
];
