// What each screen downloads before it shows, from Vite's two build manifests: the logic of scripts/bundle-report.mjs,
// kept apart from the files so that a test can feed it a small build (decision 017).
//
// - manifest.json (build.manifest): the chunks, keyed by their source file when they have one (`_name-hash.js`
//   otherwise, e.g. a tab whose lazy dialog shares some of its modules), with their static and lazy imports;
// - ssr-manifest.json (build.ssrManifest): the chunk each source module ended up in ([] for the entry chunk).
//
// A screen names the code it opens by source path: a module ('src/app/routes/technician/login.tsx') or a folder
// ('src/features/training'), whose lazy chunk is the one that code outside the folder loads. Its first load is the
// entry, the chunks that lazily load those on the way from the entry (a tab's dashboard), the named chunks, and all
// they import statically.

const KB = 1024;

/** Which chunk holds each source module, and which modules each chunk holds. */
export function indexModules(manifest, modules) {
  const entry = Object.keys(manifest).find((key) => manifest[key].isEntry);
  const keyByFile = new Map(Object.entries(manifest).map(([key, chunk]) => [chunk.file, key]));
  const builtFiles = new Set([...keyByFile.keys()].map((file) => file.split('/').pop()));
  const chunkOf = new Map();
  const modulesOf = new Map(Object.keys(manifest).map((key) => [key, []]));
  for (const [id, files] of Object.entries(modules)) {
    // The SSR manifest also lists each lazy import's CSS under the imported file's name: not a module.
    if (builtFiles.has(id)) continue;
    const file = files.find((f) => f.endsWith('.js'));
    const key = file ? keyByFile.get(file.replace(/^\//, '')) : entry;
    if (!key) continue;
    chunkOf.set(id, key);
    modulesOf.get(key).push(id);
  }
  return { entry, chunkOf, modulesOf };
}

/** Who loads a chunk with import(). */
const lazyImporters = (manifest, key) => Object.keys(manifest).filter((k) => (manifest[k].dynamicImports ?? []).includes(key));

/** The lazy chunk a screen names (a module, or a folder's way in); an error that says what to fix otherwise. */
export function findLazyChunk(manifest, index, selector) {
  if (index.chunkOf.has(selector)) {
    const key = index.chunkOf.get(selector);
    if (manifest[key].isDynamicEntry) return { key };
    return { error: `${selector} is not in a lazy chunk (it is in ${key}, loaded statically): load it with import()` };
  }
  const inFolder = (id) => id.startsWith(`${selector}/`);
  const holdsFolder = (key) => index.modulesOf.get(key).some(inFolder);
  const ways = [...new Set([...index.chunkOf].filter(([id]) => inFolder(id)).map(([, key]) => key))].filter(
    (key) => manifest[key].isDynamicEntry && lazyImporters(manifest, key).some((importer) => !holdsFolder(importer)),
  );
  if (ways.length === 1) return { key: ways[0] };
  if (ways.length === 0) return { error: `no lazy chunk holds ${selector} (renamed, moved, or no longer loaded with import()?)` };
  return { error: `${selector} is loaded through several lazy chunks (${ways.join(', ')}): name the module` };
}

/** A chunk and everything it imports statically (what the browser fetches with it). */
export function staticClosure(manifest, keys) {
  const seen = new Set();
  const stack = [...keys];
  while (stack.length) {
    const key = stack.pop();
    if (seen.has(key) || !manifest[key]) continue;
    seen.add(key);
    stack.push(...(manifest[key].imports ?? []));
  }
  return seen;
}

/** The chunks that lazily load `key`, from the entry's child down to its parent (the entry itself excluded). */
export function routeChain(manifest, key) {
  const chain = [];
  let current = key;
  for (;;) {
    const parents = lazyImporters(manifest, current);
    if (parents.length === 0) return { error: `nothing loads ${current} with import()` };
    if (parents.length > 1) {
      return { error: `${current} is loaded lazily from several chunks (${parents.join(', ')}): name the one this screen goes through` };
    }
    const [parent] = parents;
    if (manifest[parent].isEntry) return { chain };
    if (chain.includes(parent)) return { error: `lazy imports loop through ${parent}` };
    chain.unshift(parent);
    current = parent;
  }
}

/**
 * Sizes every screen's first load and checks it against its budget and its side.
 * @param {object} options
 * @param {Record<string, {file: string, imports?: string[], dynamicImports?: string[], isEntry?: boolean, isDynamicEntry?: boolean}>} options.manifest
 * @param {Record<string, string[]>} options.modules Vite's SSR manifest: source module -> ['/assets/chunk.js', css...]
 * @param {(file: string) => number} options.sizeOf gzip bytes of a file of the build
 * @param {{name: string, side: string | null, budget: number | null, load: string[]}[]} options.screens budget in KB
 *   (null: an info row); side: whose code the screen may load (null: neither side's)
 * @param {Record<string, RegExp[]>} options.sides the source modules of each side (technician, admin)
 * @param {RegExp[]} [options.shared] modules of a side that every screen may load (say why where they are listed)
 * @param {string[]} [options.otherFiles] JavaScript and web manifest files of the build that Vite's manifest does not
 *   list (a service worker, PWA files): info rows
 * @param {{worker: string, files: string[]}} [options.precache] the service worker and the files it precaches
 *   (decision 023): an info row with their number and gzip size; a listed file missing from the build fails
 * @param {number} [options.lazyInfoOverKb] lazy chunks that add more than this to what loads them get an info row
 * @returns {{rows: {name: string, kb: number, budget: number | null, status: 'ok' | 'over' | 'info'}[], errors: string[]}}
 */
export function checkBundle({ manifest, modules, sizeOf, screens, sides, shared = [], otherFiles = [], precache, lazyInfoOverKb = 100 }) {
  const index = indexModules(manifest, modules);
  if (!index.entry) return { rows: [], errors: ['the manifest has no entry chunk: is it a Vite build manifest?'] };
  const errors = [];
  const kbOf = (keys) => [...keys].map((key) => manifest[key].file).filter((file) => file.endsWith('.js')).reduce((sum, file) => sum + sizeOf(file), 0) / KB;
  const sideOf = (id) => (shared.some((pattern) => pattern.test(id)) ? undefined : Object.keys(sides).find((side) => sides[side].some((pattern) => pattern.test(id))));

  const rows = [];
  const namedBy = new Map();
  for (const screen of screens) {
    const roots = [index.entry];
    for (const selector of screen.load) {
      const found = findLazyChunk(manifest, index, selector);
      const route = found.key ? routeChain(manifest, found.key) : {};
      const error = found.error ?? route.error;
      if (error) {
        errors.push(`${screen.name}: ${error}`);
        continue;
      }
      const other = namedBy.get(found.key);
      if (other && other !== selector) errors.push(`${other} and ${selector} share the lazy chunk ${found.key}: each screen's code should have its own`);
      namedBy.set(found.key, selector);
      roots.push(...route.chain, found.key);
    }
    const keys = staticClosure(manifest, roots);

    const foreign = [...keys].flatMap((key) => index.modulesOf.get(key).filter((id) => sideOf(id) && sideOf(id) !== screen.side).map((id) => `${id} in ${key}`));
    if (foreign.length) {
      const shown = foreign.slice(0, 3).join(', ') + (foreign.length > 3 ? ` and ${foreign.length - 3} more` : '');
      errors.push(`${screen.name} (${screen.side ?? 'no side'}) loads code of the other side: ${shown}`);
    }

    const kb = kbOf(keys);
    if (screen.budget === null) {
      rows.push({ name: screen.name, kb, budget: null, status: 'info' });
      continue;
    }
    const status = kb <= screen.budget ? 'ok' : 'over';
    if (status === 'over') errors.push(`${screen.name} is over its budget: ${kb.toFixed(1)} KB > ${screen.budget} KB`);
    rows.push({ name: screen.name, kb, budget: screen.budget, status });
  }

  // Big lazy chunks (a map library, say): what each adds on top of the chunks that load it.
  for (const key of Object.keys(manifest).filter((k) => manifest[k].isDynamicEntry)) {
    const route = routeChain(manifest, key);
    const before = staticClosure(manifest, [index.entry, ...(route.chain ?? [])]);
    const added = kbOf([...staticClosure(manifest, [key])].filter((k) => !before.has(k)));
    if (added > lazyInfoOverKb) rows.push({ name: `lazy chunk ${key} (added when it loads)`, kb: added, budget: null, status: 'info' });
  }
  for (const file of otherFiles) rows.push({ name: `not in Vite's manifest (service worker, PWA): ${file}`, kb: sizeOf(file) / KB, budget: null, status: 'info' });
  if (precache) {
    let bytes = 0;
    for (const file of precache.files) {
      try {
        bytes += sizeOf(file);
      } catch {
        errors.push(`${precache.worker} precaches ${file}, which the build does not have`);
      }
    }
    rows.push({ name: `precached by ${precache.worker}: ${precache.files.length} files (installed with the app)`, kb: bytes / KB, budget: null, status: 'info' });
  }

  return { rows, errors };
}

/** The report as Markdown: one table, then what failed (or that nothing did). */
export function formatReport({ rows, errors }) {
  const lines = ['| screen (first load) | gzip JS | budget | |', '| --- | ---: | ---: | --- |'];
  for (const row of rows) lines.push(`| ${row.name} | ${row.kb.toFixed(1)} KB | ${row.budget === null ? '–' : `${row.budget} KB`} | ${row.status} |`);
  lines.push('');
  if (errors.length) lines.push('Failed:', ...errors.map((error) => `- ${error}`));
  else lines.push('Every screen is within its budget; no screen loads the other side’s code.');
  return lines.join('\n');
}
