import { describe, expect, it } from 'vitest';
import { checkBundle, formatReport } from './bundle-report.mjs';

// A small build: an entry, the technician dashboard (keyed by its file name, as Vite does when other chunks share its
// code), two technician tabs, the admin dashboard with one tab, a login page and a toast chunk.
function fakeBuild() {
  const manifest = {
    'index.html': { file: 'assets/index.js', isEntry: true, dynamicImports: ['src/app/routes/technician/login.tsx', '_dashboard-t.js', '_dashboard-a.js', 'src/components/ui/toaster.tsx'] },
    'src/app/routes/technician/login.tsx': { file: 'assets/login.js', isDynamicEntry: true, imports: ['index.html'] },
    'src/components/ui/toaster.tsx': { file: 'assets/toaster.js', isDynamicEntry: true, imports: ['index.html'] },
    '_dashboard-t.js': { file: 'assets/dashboard-t.js', isDynamicEntry: true, imports: ['index.html', '_query.js'], dynamicImports: ['src/features/training/components/training-tab.tsx', 'src/features/profile/components/profile-tab.tsx'] },
    '_dashboard-a.js': { file: 'assets/dashboard-a.js', isDynamicEntry: true, imports: ['index.html', '_query.js'], dynamicImports: ['src/features/admin-library/components/library-tab.tsx'] },
    '_query.js': { file: 'assets/query.js', imports: ['index.html'] },
    '_forms.js': { file: 'assets/forms.js' },
    'src/features/training/components/training-tab.tsx': { file: 'assets/training-tab.js', isDynamicEntry: true, imports: ['index.html', '_query.js'] },
    'src/features/profile/components/profile-tab.tsx': { file: 'assets/profile-tab.js', isDynamicEntry: true, imports: ['index.html', '_forms.js'], css: ['assets/profile.css'] },
    'src/features/admin-library/components/library-tab.tsx': { file: 'assets/library-tab.js', isDynamicEntry: true, imports: ['index.html', '_query.js', '_forms.js'] },
  };
  // Vite's SSR manifest: the chunk each source module is in ([] for the entry's modules).
  const modules = {
    'index.html': [],
    'src/app/router.tsx': [],
    'src/app/routes/technician/login.tsx': ['/assets/login.js'],
    'src/components/ui/toaster.tsx': ['/assets/toaster.js'],
    'src/app/routes/technician/dashboard.tsx': ['/assets/dashboard-t.js'],
    'src/app/routes/admin/dashboard.tsx': ['/assets/dashboard-a.js'],
    '../node_modules/@tanstack/query-core/build/modern/query.js': ['/assets/query.js'],
    '../node_modules/react-hook-form/dist/index.esm.mjs': ['/assets/forms.js'],
    'src/features/training/components/training-tab.tsx': ['/assets/training-tab.js'],
    'src/features/training/api/get-training.ts': ['/assets/training-tab.js'],
    'src/features/profile/components/profile-tab.tsx': ['/assets/profile-tab.js', '/assets/profile.css'],
    'src/features/admin-library/components/library-tab.tsx': ['/assets/library-tab.js'],
    // The CSS a lazy import brings, listed under the imported file's name: not a module.
    'profile-tab.js': ['/assets/profile.css'],
  };
  const kb = { 'assets/index.js': 80, 'assets/login.js': 5, 'assets/toaster.js': 7, 'assets/dashboard-t.js': 3, 'assets/dashboard-a.js': 4, 'assets/query.js': 12, 'assets/forms.js': 20, 'assets/training-tab.js': 2, 'assets/profile-tab.js': 6, 'assets/library-tab.js': 9, 'sw.js': 15, 'assets/profile.css': 50 };
  return { manifest, modules, sizeOf: (file) => kb[file] * 1024 };
}

const SIDES = {
  technician: [/^src\/app\/routes\/technician\//, /^src\/features\/(?!admin-|auth\/)[^/]+\//],
  admin: [/^src\/app\/routes\/admin\//, /^src\/features\/admin-[^/]+\//],
};
const screens = (budgets = {}) => [
  { name: 'public: landing', side: null, budget: 100, load: [] },
  { name: 'public: technician login', side: 'technician', budget: 100, load: ['src/app/routes/technician/login.tsx'] },
  { name: 'technician: training', side: 'technician', budget: budgets.training ?? 150, load: ['src/features/training'] },
  { name: 'technician: profile', side: 'technician', budget: budgets.profile ?? 150, load: ['src/features/profile'] },
  { name: 'admin: library', side: 'admin', budget: 250, load: ['src/features/admin-library'] },
];
const kbOf = (report, name) => report.rows.find((row) => row.name === name)?.kb;

describe('bundle report', () => {
  it('passes a build whose screens are within budget, and sizes each first load from the entry to the tab', () => {
    const { manifest, modules, sizeOf } = fakeBuild();
    const report = checkBundle({ manifest, modules, sizeOf, screens: screens(), sides: SIDES });
    expect(report.errors).toEqual([]);
    expect(kbOf(report, 'public: landing')).toBe(80);
    expect(kbOf(report, 'public: technician login')).toBe(85);
    // entry + dashboard (the chunk that loads the tab) + its query chunk + the tab; CSS is not counted.
    expect(kbOf(report, 'technician: training')).toBe(80 + 3 + 12 + 2);
    expect(kbOf(report, 'technician: profile')).toBe(80 + 3 + 12 + 6 + 20);
    expect(kbOf(report, 'admin: library')).toBe(80 + 4 + 12 + 9 + 20);
    expect(report.rows.every((row) => row.status === 'ok')).toBe(true);
    expect(formatReport(report)).toContain('| technician: profile | 121.0 KB | 150 KB | ok |');
  });

  it('fails a screen over its budget', () => {
    const { manifest, modules, sizeOf } = fakeBuild();
    const report = checkBundle({ manifest, modules, sizeOf, screens: screens({ profile: 120 }), sides: SIDES });
    expect(report.errors).toEqual(['technician: profile is over its budget: 121.0 KB > 120 KB']);
    expect(report.rows.find((row) => row.name === 'technician: profile')?.status).toBe('over');
    expect(formatReport(report)).toContain('| technician: profile | 121.0 KB | 120 KB | over |');
    expect(formatReport(report)).toContain('Failed:\n- technician: profile is over its budget');
  });

  it('fails a technician screen that imports an admin chunk', () => {
    const { manifest, modules, sizeOf } = fakeBuild();
    manifest['src/features/training/components/training-tab.tsx'].imports.push('src/features/admin-library/components/library-tab.tsx');
    const report = checkBundle({ manifest, modules, sizeOf, screens: screens(), sides: SIDES });
    expect(report.errors).toEqual([
      'technician: training (technician) loads code of the other side: src/features/admin-library/components/library-tab.tsx in src/features/admin-library/components/library-tab.tsx',
    ]);
  });

  it('fails a technician screen that imports the admin dashboard, a chunk known only by its file name', () => {
    const { manifest, modules, sizeOf } = fakeBuild();
    manifest['src/features/profile/components/profile-tab.tsx'].imports.push('_dashboard-a.js');
    const report = checkBundle({ manifest, modules, sizeOf, screens: screens({ profile: 1000 }), sides: SIDES });
    expect(report.errors).toEqual(['technician: profile (technician) loads code of the other side: src/app/routes/admin/dashboard.tsx in _dashboard-a.js']);
  });

  it('fails when admin code lands in a chunk shared with technician screens, and the reverse', () => {
    const { manifest, modules, sizeOf } = fakeBuild();
    modules['src/features/admin-library/api/get-resources.ts'] = ['/assets/query.js'];
    modules['src/features/training/api/training-path.ts'] = [];
    const report = checkBundle({ manifest, modules, sizeOf, screens: screens(), sides: SIDES });
    expect(report.errors).toEqual([
      'public: landing (no side) loads code of the other side: src/features/training/api/training-path.ts in index.html',
      'technician: training (technician) loads code of the other side: src/features/admin-library/api/get-resources.ts in _query.js',
      'technician: profile (technician) loads code of the other side: src/features/admin-library/api/get-resources.ts in _query.js',
      'admin: library (admin) loads code of the other side: src/features/training/api/training-path.ts in index.html',
    ]);
    // A module listed as shared (with its reason, in the report's configuration) is allowed everywhere.
    const allowed = checkBundle({ manifest, modules, sizeOf, screens: screens(), sides: SIDES, shared: [/get-resources\.ts$/, /training-path\.ts$/] });
    expect(allowed.errors).toEqual([]);
  });

  it('finds a tab by its folder when its chunk is keyed by its file name', () => {
    const { manifest, modules, sizeOf } = fakeBuild();
    // Rollup gives a tab's chunk no source name when a dialog it loads lazily shares its modules.
    manifest['_training-tab-x.js'] = { ...manifest['src/features/training/components/training-tab.tsx'], dynamicImports: ['src/features/training/components/quiz-dialog.tsx'] };
    delete manifest['src/features/training/components/training-tab.tsx'];
    manifest['_dashboard-t.js'].dynamicImports[0] = '_training-tab-x.js';
    manifest['src/features/training/components/quiz-dialog.tsx'] = { file: 'assets/quiz.js', isDynamicEntry: true, imports: ['_training-tab-x.js'] };
    modules['src/features/training/components/quiz-dialog.tsx'] = ['/assets/quiz.js'];
    const report = checkBundle({ manifest, modules, sizeOf: (file) => (file === 'assets/quiz.js' ? 50 * 1024 : sizeOf(file)), screens: screens(), sides: SIDES });
    expect(report.errors).toEqual([]);
    expect(kbOf(report, 'technician: training')).toBe(80 + 3 + 12 + 2);
  });

  it('fails clearly when a screen’s code cannot be found, is not lazy, or shares a chunk with another screen', () => {
    const { manifest, modules, sizeOf } = fakeBuild();
    const list = [
      { name: 'technician: packages', side: 'technician', budget: 150, load: ['src/features/packages'] },
      { name: 'router', side: null, budget: 150, load: ['src/app/router.tsx'] },
      { name: 'technician: training', side: 'technician', budget: 150, load: ['src/features/training'] },
      { name: 'technician: training api', side: 'technician', budget: 150, load: ['src/features/training/api/get-training.ts'] },
    ];
    const report = checkBundle({ manifest, modules, sizeOf, screens: list, sides: SIDES });
    expect(report.errors).toEqual([
      'technician: packages: no lazy chunk holds src/features/packages (renamed, moved, or no longer loaded with import()?)',
      'router: src/app/router.tsx is not in a lazy chunk (it is in index.html, loaded statically): load it with import()',
      "src/features/training and src/features/training/api/get-training.ts share the lazy chunk src/features/training/components/training-tab.tsx: each screen's code should have its own",
    ]);
  });

  it('shows files outside Vite’s manifest and big lazy chunks as info rows, without failing', () => {
    const { manifest, modules, sizeOf } = fakeBuild();
    const report = checkBundle({ manifest, modules, sizeOf, screens: screens(), sides: SIDES, otherFiles: ['sw.js'], lazyInfoOverKb: 25 });
    expect(report.errors).toEqual([]);
    const info = report.rows.filter((row) => row.status === 'info');
    // The library tab adds itself and the forms chunk (29 KB) to its dashboard; the profile tab 26 KB.
    expect(info).toEqual([
      { name: 'lazy chunk src/features/profile/components/profile-tab.tsx (added when it loads)', kb: 26, budget: null, status: 'info' },
      { name: 'lazy chunk src/features/admin-library/components/library-tab.tsx (added when it loads)', kb: 29, budget: null, status: 'info' },
      { name: "not in Vite's manifest (service worker, PWA): sw.js", kb: 15, budget: null, status: 'info' },
    ]);
  });

  it('counts what the service worker precaches in an info row, and fails on a precached file the build lacks', () => {
    const { manifest, modules, sizeOf } = fakeBuild();
    const files = [manifest['index.html'].file, 'sw.js'];
    const ok = checkBundle({ manifest, modules, sizeOf, screens: [], sides: SIDES, precache: { worker: 'sw.js', files } });
    expect(ok.errors).toEqual([]);
    expect(ok.rows).toEqual([
      { name: 'precached by sw.js: 2 files (installed with the app)', kb: (sizeOf(files[0]) + sizeOf('sw.js')) / 1024, budget: null, status: 'info' },
    ]);
    const missing = checkBundle({
      manifest,
      modules,
      sizeOf: (file) => {
        if (file === 'assets/gone.js') throw new Error('ENOENT');
        return sizeOf(file);
      },
      screens: [],
      sides: SIDES,
      precache: { worker: 'sw.js', files: ['assets/gone.js'] },
    });
    expect(missing.errors).toEqual(['sw.js precaches assets/gone.js, which the build does not have']);
  });
});
