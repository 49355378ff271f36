/** The key reads of the bench (bench.ts loads them, sql-capture.ts records the SQL each one runs). */
import type { LoadRequest } from './load';

export interface Session {
  cookie: string;
  technicianId: string | null;
  /** For the admin: the first lot of « Missions & Lots », whose card lists its missions. */
  lotId?: string | null;
  /** For the admin: a page of lot cards with a recruit (« Missions & Lots »), whose proposals the cards show. */
  recruitedLotIds?: string[];
  /** For a technician: its first « Recruté » application, whose field-work screen it opens (none for most). */
  applicationId?: string | null;
}

export interface Endpoint {
  name: string;
  area: 'technicien' | 'admin';
  path: (s: Session) => string;
  check: (body: unknown) => boolean;
  /** Read only by the technicians with a « Recruté » lot (the field-work screen): the others have none to open. */
  recruitedOnly?: boolean;
}

const isArray = (b: unknown) => Array.isArray(b);
const hasKeys = (...keys: string[]) => (b: unknown) => typeof b === 'object' && b !== null && keys.every((k) => k in b);

export const ENDPOINTS: Endpoint[] = [
  { name: 'Trouver des missions (page 1)', area: 'technicien', path: (s) => `/api/mission-batches/available-for-application?technicianId=${s.technicianId}&limit=20`, check: isArray },
  // Issue 18: nearest first from the technician's address, among every open lot (8 000 at full scale).
  { name: 'Trouver des missions (les plus proches)', area: 'technicien', path: (s) => `/api/mission-batches/available-for-application?technicianId=${s.technicianId}&sort=nearest&limit=20`, check: isArray },
  // The sort « Les plus récents » (the mixed workload's other page of lots): the open lots' index walked most recent first.
  { name: 'Trouver des missions (les plus récents)', area: 'technicien', path: (s) => `/api/mission-batches/available-for-application?technicianId=${s.technicianId}&sort=recent&limit=20`, check: isArray },
  { name: 'Trouver des missions (département 75)', area: 'technicien', path: (s) => `/api/mission-batches/available-for-application?technicianId=${s.technicianId}&department=75&limit=20`, check: isArray },
  // What « Trouver des missions » reads beside its page: the filters' values and the map's markers (decision 036).
  { name: 'Filtres des lots', area: 'technicien', path: () => '/api/mission-batches/available-filters', check: hasKeys('departments', 'tags') },
  { name: 'Carte des lots', area: 'technicien', path: (s) => `/api/mission-batches/available-for-application/map?technicianId=${s.technicianId}`, check: hasKeys('home', 'lots', 'total') },
  // Every screen's first read: who is signed in.
  { name: 'Session', area: 'technicien', path: () => '/api/auth/me', check: hasKeys('user', 'technician') },
  { name: 'Candidatures', area: 'technicien', path: (s) => `/api/applications?technicianId=${s.technicianId}`, check: isArray },
  { name: "Compteurs d'onglets", area: 'technicien', path: (s) => `/api/technicians/${s.technicianId}/counts`, check: hasKeys('formation', 'findMissions') },
  { name: 'Factures', area: 'technicien', path: (s) => `/api/technician/${s.technicianId}/invoices`, check: isArray },
  // The field-work screen (a Recruté lot's devices, progress, appointments and messages): what a technician reads most
  // on a working day. Loaded by those of the bench's 32 technicians that have such a lot (how many changes with each
  // seed: its rows are ordered by random ids).
  { name: 'Terrain (lot recruté)', area: 'technicien', recruitedOnly: true, path: (s) => `/api/applications/${s.applicationId}/work`, check: hasKeys('application', 'lot', 'missions') },
  // The technician's parcels (« Colis »), unmeasured until decision 037.
  { name: 'Colis', area: 'technicien', path: (s) => `/api/shipments?technicianId=${s.technicianId}&limit=20`, check: isArray },
  // The technician's other screens' first reads: the pills of « Candidatures », « Revenus » (its summary and its
  // transfers), « Formation » (the library and what the technician has opened).
  { name: 'Compteurs candidatures', area: 'technicien', path: (s) => `/api/applications/status-counts?technicianId=${s.technicianId}`, check: hasKeys('Recruté', 'En attente') },
  { name: 'Revenus', area: 'technicien', path: (s) => `/api/technician/${s.technicianId}/revenue-summary`, check: hasKeys('activeMissionGains', 'pendingTransfers', 'paymentHistory') },
  { name: 'Virements', area: 'technicien', path: (s) => `/api/technician/${s.technicianId}/transfers?limit=20&offset=0`, check: isArray },
  { name: 'Formation', area: 'technicien', path: () => '/api/learning-resources', check: isArray },
  { name: 'Formation (lus)', area: 'technicien', path: (s) => `/api/resource-views?technicianId=${s.technicianId}`, check: isArray },
  { name: 'Compteurs admin', area: 'admin', path: () => '/api/admin/counts', check: hasKeys('suggestions', 'missionsLots') },
  // The spec's call (02-administrator: GET /api/missions), first page, no filter: 100 000 missions most recent first.
  { name: 'Liste des missions (page 1)', area: 'admin', path: () => '/api/missions', check: isArray },
  { name: 'Recherche missions', area: 'admin', path: () => '/api/missions?search=Site%201234&limit=20', check: isArray },
  // A search nearly every mission matches, as a search box sends its first letters (decision 042: « plus de 1 000 »).
  { name: 'Recherche missions (large)', area: 'admin', path: () => '/api/missions?search=maintenance&limit=20', check: isArray },
  { name: 'Page des lots', area: 'admin', path: () => '/api/mission-batches?limit=20', check: isArray },
  // The lots' search reaches their missions' fields (decisions 054, 055): « Lot 12 » finds 111 lots by their titles.
  { name: 'Recherche lots', area: 'admin', path: () => '/api/mission-batches?search=Lot%2012&limit=20', check: isArray },
  // The other lists of « Missions & Lots »: « À trier » (2 000 missions without a lot at full scale, fifty a page),
  // the missions a lot's card opens (a hundred at most), the completed missions (20 000, 24 a page), and the map of
  // « À trier » alone.
  { name: 'À trier', area: 'admin', path: () => '/api/missions?unbatched=true&limit=50&offset=0', check: isArray },
  { name: "Missions d'un lot", area: 'admin', path: (s) => `/api/missions?batchId=${s.lotId}&limit=100&offset=0`, check: isArray },
  { name: 'Missions terminées', area: 'admin', path: () => '/api/missions?status=completed&limit=24&offset=0', check: isArray },
  { name: 'Carte des missions (à trier)', area: 'admin', path: () => '/api/missions/map?scope=unsorted', check: hasKeys('missions', 'lots', 'more', 'clusters') },
  // The counts beside three admin lists, asked for with each page: the sub-tabs of « Techniciens », the chips of
  // « Factures & virements », the pills of « Expéditions ».
  { name: 'Compteurs techniciens', area: 'admin', path: () => '/api/technicians/status-counts', check: hasKeys('pending', 'active', 'inactive') },
  { name: 'Compteurs factures', area: 'admin', path: () => '/api/invoices/status-counts', check: hasKeys('Terminé') },
  { name: 'Compteurs expéditions', area: 'admin', path: () => '/api/shipments/admin/summary', check: hasKeys('counts') },
  // What « Missions terminées » asks for in its sub-tab of completed lots: twenty lots, each with its missions (2 000
  // completed lots of ten completed missions at full scale).
  { name: 'Lots terminés', area: 'admin', path: () => '/api/mission-batches/completed?limit=20&offset=0', check: isArray },
  { name: 'Page des techniciens', area: 'admin', path: () => '/api/technicians?status=active&limit=20', check: isArray },
  // What the admin's « Techniciens » screen asks for (its cards: training, current lots, documents), ten a page.
  { name: 'Page des techniciens (écran admin)', area: 'admin', path: () => '/api/technicians/enhanced?status=active&limit=10', check: isArray },
  { name: 'Page des factures', area: 'admin', path: () => '/api/invoices?limit=20', check: isArray },
  { name: 'Page des expéditions', area: 'admin', path: () => '/api/shipments/admin?limit=20', check: isArray },
  // Expéditions' proposals, first page: the first 20 active lots with a recruit that need parts, from each lot's figures
  // kept (decision 060; computed on each read from the registry's expiry dates until then, decisions 026 and 057).
  { name: 'Propositions de colis', area: 'admin', path: () => '/api/admin/parts/proposals', check: hasKeys('items', 'next') },
  // The proposals of a page of 20 lot cards with a recruit in « Missions & Lots », for their badges.
  {
    name: 'Colis proposés des lots',
    area: 'admin',
    path: (s) => `/api/admin/parts/proposals?batchIds=${(s.recruitedLotIds ?? []).join(',')}`,
    check: hasKeys('items', 'next'),
  },
  // The admin's map of Missions & Lots (decision 025) as it opens (every « À trier » and active-lot mission, at most
  // 3 000 markers), then after « Chercher dans cette zone » over Paris.
  { name: 'Carte des missions', area: 'admin', path: () => '/api/missions/map?scope=all', check: hasKeys('missions', 'lots', 'more', 'clusters') },
  { name: 'Carte des missions (Paris)', area: 'admin', path: () => '/api/missions/map?scope=all&south=48.80&west=2.22&north=48.92&east=2.47', check: hasKeys('missions', 'lots', 'more', 'clusters') },
  // Parc DAE (issue 16): 102 000 devices, one per mission of the scale seed.
  { name: 'Parc DAE (page 1)', area: 'admin', path: () => '/api/devices?limit=20', check: isArray },
  { name: 'Parc DAE (à surveiller)', area: 'admin', path: () => '/api/devices?attention=true&limit=20', check: isArray },
  { name: 'Parc DAE (recherche)', area: 'admin', path: () => '/api/devices?search=SN-B-1234&limit=20', check: isArray },
  { name: 'Parc DAE (recherche large)', area: 'admin', path: () => '/api/devices?search=a&limit=20', check: isArray },
];

/** BENCH_ONLY='<regex>' keeps the endpoints whose name matches (a partial run). */
export function selectedEndpoints(only = process.env.BENCH_ONLY): Endpoint[] {
  const pattern = only ? new RegExp(only, 'i') : null;
  return ENDPOINTS.filter((e) => !pattern || pattern.test(e.name));
}

/** The sessions that load an endpoint: the admin's, or the technicians' (those with a « Recruté » lot for the field work). */
export function endpointSessions(endpoint: Endpoint, admin: Session[], technicians: Session[]): Session[] {
  if (endpoint.area === 'admin') return admin;
  if (!endpoint.recruitedOnly) return technicians;
  const recruited = technicians.filter((session) => session.applicationId);
  if (recruited.length === 0) throw new Error(`${endpoint.name} : aucun des techniciens connectés n’a de lot recruté`);
  return recruited;
}

/**
 * What Chromium sends with every request: the server compresses each answer over 1 KiB as it does for a phone
 * (decision 037; before, the load asked for none, and the bench never paid for compression). BENCH_ACCEPT_ENCODING
 * sends another value, or none when empty (plain answers, as the runs before decision 037).
 */
export const BROWSER_ACCEPT_ENCODING = process.env.BENCH_ACCEPT_ENCODING ?? 'gzip, deflate, br, zstd';

/** One request per signed-in session for an endpoint: the load picks among them at random. */
export function endpointRequests(endpoint: Endpoint, sessions: Session[]): LoadRequest[] {
  return sessions.map((session) => ({
    method: 'GET',
    path: endpoint.path(session),
    headers: { cookie: session.cookie, ...(BROWSER_ACCEPT_ENCODING ? { 'accept-encoding': BROWSER_ACCEPT_ENCODING } : {}) },
  }));
}
