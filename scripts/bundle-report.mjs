// Gzip size of the JavaScript each area downloads (entry + its route chunks + every lazy tab), from Vite's manifest,
// and a check that the technician area never loads admin code (and the reverse). Both the budgets of issue 10
// (decision 013) and the separation are enforced: exit 1 when an area is over or leaks. A public area is what the page
// needs for its first paint; an info row adds the register page's form, which it loads right after.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const dist = path.resolve(process.argv[2] ?? 'web/dist');
const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
const gzip = (file) => zlib.gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length;

function closure(keys, { dynamic }) {
  const seen = new Set();
  const stack = [...keys];
  while (stack.length) {
    const key = stack.pop();
    if (seen.has(key) || !manifest[key]) continue;
    seen.add(key);
    for (const next of manifest[key].imports ?? []) stack.push(next);
    // The entry's lazy routes are other areas: only an area's own chunks are followed into their lazy tabs.
    if (dynamic && !manifest[key].isEntry) for (const next of manifest[key].dynamicImports ?? []) stack.push(next);
  }
  return seen;
}

const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
const route = (file) => `src/app/routes/${file}`;
// The dashboards are lazy chunks of the router; find them by the tabs they load.
const chunkLoading = (feature) =>
  Object.keys(manifest).find((k) => (manifest[k].dynamicImports ?? []).some((d) => d.includes(`features/${feature}/`)));
const technicianDashboard = chunkLoading('find-missions');
const adminDashboard = chunkLoading('admin-moderation');
// The toast region is a lazy chunk of the entry that the dashboards mount at once (useToastRegion): it counts in their
// areas. The public pages load it only with their first toast, after a submit.
const toaster = 'src/components/ui/toaster.tsx';
const areas = {
  'public: landing': { keys: [entry], dynamic: false, budget: 100 },
  'public: technician login': { keys: [entry, route('technician/login.tsx')], dynamic: false, budget: 100 },
  'public: register': { keys: [entry, route('technician/register.tsx')], dynamic: false, budget: 100 },
  'public: admin login': { keys: [entry, route('admin/login.tsx')], dynamic: false, budget: 100 },
  // The registration form is a lazy chunk the page requests right after its first paint: shown, not budgeted.
  'register page with its form': { keys: [entry, route('technician/register.tsx')], dynamic: true, budget: null },
  'technician area (all tabs)': { keys: [entry, technicianDashboard, toaster], dynamic: true, budget: 200 },
  'admin area (all tabs)': { keys: [entry, adminDashboard, toaster], dynamic: true, budget: 300 },
};
for (const [name, area] of Object.entries(areas)) {
  const missing = area.keys.filter((k) => !k || !manifest[k]);
  if (missing.length) {
    console.error(`${name}: ${missing.map(String).join(', ')} not in the manifest (renamed?): the report cannot size this area.`);
    process.exit(1);
  }
}

const sizes = {};
const rows = [];
const over = [];
for (const [name, area] of Object.entries(areas)) {
  // The entry's own lazy routes are not part of an area unless the area is that route.
  const keys = closure(area.keys, { dynamic: false });
  if (area.dynamic) for (const k of area.keys.slice(1)) for (const c of closure([k], { dynamic: true })) keys.add(c);
  const files = [...keys].map((k) => manifest[k].file).filter((f) => f.endsWith('.js'));
  const kb = files.reduce((sum, f) => sum + gzip(f), 0) / 1024;
  sizes[name] = { keys, kb };
  if (area.budget === null) {
    rows.push(`| ${name} | ${kb.toFixed(1)} KB | – | info |`);
    continue;
  }
  if (kb > area.budget) over.push(`${name} (${kb.toFixed(1)} KB > ${area.budget} KB)`);
  rows.push(`| ${name} | ${kb.toFixed(1)} KB | ${area.budget} KB | ${kb <= area.budget ? 'ok' : 'over'} |`);
}

const technicianKeys = sizes['technician area (all tabs)'].keys;
const adminKeys = sizes['admin area (all tabs)'].keys;
const leaks = [...technicianKeys].filter((k) => k.includes('features/admin-') || k.includes('routes/admin/'));
const reverse = [...adminKeys].filter((k) => /features\/(training|find-missions|applications|revenue|packages|profile)\//.test(k));

console.log('| area | gzip JS | budget | |\n| --- | ---: | ---: | --- |');
console.log(rows.join('\n'));
let failed = false;
if (leaks.length || reverse.length) {
  console.error(`Admin code in the technician area: ${leaks.join(', ') || 'none'}; technician code in the admin area: ${reverse.join(', ') || 'none'}`);
  failed = true;
} else console.log('Separation: the technician area loads no admin code, the admin area no technician tab.');
if (over.length) {
  console.error(`Over budget: ${over.join('; ')}`);
  failed = true;
} else console.log('Budgets: every area is within its budget.');
if (failed) process.exit(1);
