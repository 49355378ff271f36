import { describe, expect, it } from 'vitest';
import { precachedUrls, technicianAreaFiles } from './precache.mjs';

const manifest = {
  'index.html': { file: 'assets/index-a.js', isEntry: true, imports: ['_shared-b.js'], dynamicImports: ['src/app/routes/technician/dashboard.tsx', 'src/app/routes/admin/dashboard.tsx'], css: ['assets/index-a.css'] },
  '_shared-b.js': { file: 'assets/shared-b.js' },
  'src/app/routes/technician/dashboard.tsx': { file: 'assets/dashboard-c.js', isDynamicEntry: true, dynamicImports: ['src/features/packages/components/packages-tab.tsx'], imports: ['_shared-b.js'] },
  'src/features/packages/components/packages-tab.tsx': { file: 'assets/packages-tab-d.js', isDynamicEntry: true, assets: ['assets/box-e.svg'] },
  'src/app/routes/admin/dashboard.tsx': { file: 'assets/dashboard-f.js', isDynamicEntry: true, imports: ['_admin-only-g.js', '_shared-b.js'] },
  '_admin-only-g.js': { file: 'assets/admin-only-g.js' },
  // The admin's settings tab, loaded from an admin dashboard chunk keyed by its file name (it shares modules).
  '_dashboard-h.js': { file: 'assets/dashboard-h.js', isDynamicEntry: true, dynamicImports: ['src/features/admin-settings/components/settings-tab.tsx'] },
  'src/features/admin-settings/components/settings-tab.tsx': { file: 'assets/settings-tab-i.js', isDynamicEntry: true },
};
manifest['index.html'].dynamicImports.push('_dashboard-h.js');
const modules = { 'src/app/routes/admin/tabs.tsx': ['/assets/dashboard-h.js'], 'src/app/routes/technician/tabs.tsx': ['/assets/dashboard-c.js'] };

describe('technicianAreaFiles', () => {
  it('keeps the entry, the technician routes and tabs with their CSS and assets, not what only the admin loads', () => {
    const files = technicianAreaFiles(manifest, modules);
    expect([...files].sort()).toEqual(
      ['assets/box-e.svg', 'assets/dashboard-c.js', 'assets/index-a.css', 'assets/index-a.js', 'assets/packages-tab-d.js', 'assets/shared-b.js'].sort(),
    );
    expect(files.has('assets/dashboard-f.js')).toBe(false);
    expect(files.has('assets/admin-only-g.js')).toBe(false);
    expect(files.has('assets/dashboard-h.js')).toBe(false);
    expect(files.has('assets/settings-tab-i.js')).toBe(false);
  });
});

describe('precachedUrls', () => {
  it('reads the precache list of a generated service worker', () => {
    const code = 'e.precacheAndRoute([{url:"assets/index-a.js",revision:null},{url:"index.html",revision:"3f2"},{ url: "icons/icon-192.png", revision: "9a" }],{})';
    expect(precachedUrls(code)).toEqual(['assets/index-a.js', 'index.html', 'icons/icon-192.png']);
  });
});
