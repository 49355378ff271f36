// What the service worker precaches (decision 023): the files of the technician area, found in Vite's build manifest.
// Every chunk reachable from the entry, statically or with import(), except through the admin's routes: the admin
// works online at a desk, and a technician's phone should not download the admin's code.

/** The admin area's way in: its routes (login page and dashboard). */
export const isAdminRoute = (id) => id.startsWith('src/app/routes/admin/');

/**
 * @param {Record<string, {file: string, isEntry?: boolean, imports?: string[], dynamicImports?: string[], css?: string[], assets?: string[]}>} manifest
 *   Vite's manifest.json
 * @param {Record<string, string[]>} modules Vite's ssr-manifest.json: the chunk files of each source module (a lazy
 *   chunk that shares modules is keyed by its file name in manifest.json, so its modules are read here)
 * @param {(id: string) => boolean} [isSkipped] source modules whose chunks are not followed (and not kept)
 * @returns {Set<string>} the build's files (JavaScript, CSS and their assets) the technician area may load
 */
export function technicianAreaFiles(manifest, modules = {}, isSkipped = isAdminRoute) {
  const skippedFiles = new Set(
    Object.entries(modules)
      .filter(([id]) => isSkipped(id))
      .flatMap(([, files]) => files.filter((file) => file.endsWith('.js')).map((file) => file.replace(/^\//, ''))),
  );
  const skip = (key) => isSkipped(key) || skippedFiles.has(manifest[key].file);
  const files = new Set();
  const seen = new Set();
  const stack = Object.keys(manifest).filter((key) => manifest[key].isEntry);
  while (stack.length) {
    const key = stack.pop();
    if (seen.has(key) || !manifest[key] || skip(key)) continue;
    seen.add(key);
    const chunk = manifest[key];
    for (const file of [chunk.file, ...(chunk.css ?? []), ...(chunk.assets ?? [])]) files.add(file);
    stack.push(...(chunk.imports ?? []), ...(chunk.dynamicImports ?? []));
  }
  return files;
}

/** The URLs a generated service worker precaches, read from its code (workbox's precache manifest). */
export function precachedUrls(serviceWorkerCode) {
  return [...serviceWorkerCode.matchAll(/\{\s*url:\s*"([^"]+)",\s*revision:/g)].map((match) => match[1]);
}
