// First-load budgets per screen (decision 017): the gzip JavaScript (level 9) each screen downloads before it shows,
// from Vite's manifests (scripts/lib/bundle-report.mjs). Exit 1 when a screen is over its budget, loads the other side's code (a technician screen
// admin code, or the reverse) or cannot be found in the build. Usage: node scripts/bundle-report.mjs web/dist
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { checkBundle, formatReport } from './lib/bundle-report.mjs';
import { precachedUrls } from './lib/precache.mjs';

const publicPage = (name, side, route) => ({ name: `public: ${name}`, side, budget: 100, load: route ? [route] : [] });
// A tab is what /technician/dashboard?tab=<id> (or /admin/dashboard/<id>) downloads: the entry, the dashboard that
// loads the tab, the tab's own chunk and their static imports. One line per tab, naming its feature folder (or its
// module when a folder holds two tabs).
const technicianTab = (id, from) => ({ name: `technician: ?tab=${id}`, side: 'technician', budget: 150, load: [from] });
const adminTab = (id, from) => ({ name: `admin: ${id}`, side: 'admin', budget: 250, load: [from] });

const SCREENS = [
  publicPage('landing', null),
  publicPage('technician login', 'technician', 'src/app/routes/technician/login.tsx'),
  publicPage('register', 'technician', 'src/app/routes/technician/register.tsx'),
  publicPage('reset password', 'technician', 'src/app/routes/technician/reset-password.tsx'),
  publicPage('admin login', 'admin', 'src/app/routes/admin/login.tsx'),
  publicPage('site visit link', 'technician', 'src/app/routes/site-visit.tsx'),
  // The register and reset-password pages ask for their form right after their heading and text have shown: shown,
  // not budgeted.
  { name: 'register page with its form', side: 'technician', budget: null, load: ['src/features/onboarding/components/registration-form.tsx'] },
  { name: 'reset password page with its form', side: 'technician', budget: null, load: ['src/features/onboarding/components/reset-password-form.tsx'] },
  technicianTab('find-missions', 'src/features/find-missions'),
  // The dashboards ask for the toast region once they have shown (useToastRegion): shown, not budgeted.
  { name: 'technician: ?tab=find-missions with the toast region', side: 'technician', budget: null, load: ['src/features/find-missions', 'src/components/ui/toaster.tsx'] },
  // ?tab=missions shows the same code as ?tab=applications.
  technicianTab('applications', 'src/features/applications'),
  technicianTab('formation', 'src/features/training'),
  technicianTab('revenue', 'src/features/revenue'),
  technicianTab('packages', 'src/features/packages'),
  technicianTab('profile', 'src/features/profile'),
  { name: 'technician: visit report (/technician/visits/:missionId/report)', side: 'technician', budget: 150, load: ['src/app/routes/technician/visit-report.tsx'] },
  // The maps (decision 025) load when opened, never with a tab: Leaflet and the map components in one lazy chunk
  // (the outline of France follows in its own chunk, 85 KB, fetched by the map). Shown, not budgeted.
  { name: 'technician: ?tab=find-missions, then its map', side: 'technician', budget: null, load: ['src/features/find-missions', 'src/features/find-missions/components/lots-map.tsx'] },
  { name: 'technician: ?tab=applications, then the route map', side: 'technician', budget: null, load: ['src/features/applications', 'src/features/applications/components/work-route-map.tsx'] },
  adminTab('missions-draft', 'src/features/admin-moderation'),
  adminTab('missions-active', 'src/app/routes/admin/missions-tab.tsx'),
  { name: 'admin: missions-active, then its map', side: 'admin', budget: null, load: ['src/app/routes/admin/missions-tab.tsx', 'src/features/admin-missions/components/missions-map.tsx'] },
  adminTab('missions-completed', 'src/features/admin-missions/components/completed-missions-tab.tsx'),
  adminTab('technicians', 'src/features/admin-technicians'),
  adminTab('invoices', 'src/app/routes/admin/invoices-tab.tsx'),
  adminTab('shipments', 'src/features/admin-shipments'),
  adminTab('library', 'src/features/admin-library'),
  adminTab('settings', 'src/features/admin-settings'),
  adminTab('devices', 'src/features/admin-devices'),
];

// Whose code a source path is: the admin features are named admin-*; every other feature but the shared auth is the
// technician's (the landing page, the entry's code, loads neither).
const SIDES = {
  technician: [/^src\/app\/routes\/technician\//, /^src\/features\/(?!admin-|auth\/)[^/]+\//],
  admin: [/^src\/app\/routes\/admin\//, /^src\/features\/admin-[^/]+\//],
};
// Technician modules every screen loads on purpose: the entry starts the technician's first read of lots while the
// dashboard's code loads (decision 015), so it builds that address (a few lines, no UI).
const SHARED = [/^src\/features\/find-missions\/api\/available-lots-path\.ts$/];

const dist = path.resolve(process.argv[2] ?? 'web/dist');
const readJson = (file) => {
  const full = path.join(dist, file);
  if (fs.existsSync(full)) return JSON.parse(fs.readFileSync(full, 'utf8'));
  console.error(`${full} is missing: build the web app first (npm run build; web/vite.config.ts sets build.manifest and build.ssrManifest).`);
  process.exit(1);
};
const manifest = readJson('.vite/manifest.json');
const modules = readJson('.vite/ssr-manifest.json');
const sizes = new Map();
const sizeOf = (file) => {
  if (!sizes.has(file)) sizes.set(file, zlib.gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length);
  return sizes.get(file);
};

// Files a plugin writes beside Vite's chunks (a service worker, its registration, the web app manifest).
const listed = new Set(Object.values(manifest).flatMap((chunk) => [chunk.file, ...(chunk.css ?? []), ...(chunk.assets ?? [])]));
const otherFiles = fs
  .readdirSync(dist, { recursive: true })
  .map((file) => file.split(path.sep).join('/'))
  .filter((file) => /\.(js|webmanifest)$/.test(file) && !file.startsWith('.vite/') && !listed.has(file))
  .sort();

// The service worker of the technician's field app and what it precaches (decision 023).
const worker = 'sw.js';
const precache = fs.existsSync(path.join(dist, worker)) ? { worker, files: precachedUrls(fs.readFileSync(path.join(dist, worker), 'utf8')) } : undefined;

const report = checkBundle({ manifest, modules, sizeOf, screens: SCREENS, sides: SIDES, shared: SHARED, otherFiles, precache });
console.log(formatReport(report));
if (report.errors.length) process.exit(1);
