import path from 'node:path';
import { createRequire } from 'node:module';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

// react-router's package exports only its development build (dev warnings on, remix-run/react-router#12532);
// production bundles take the production build next to it.
const reactRouterProduction = path.join(
  path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
  'dist/production/index.mjs',
);

// react-router's build declares its components (NavLink, Form…) without the pure annotation that React libraries put on
// React.forwardRef / createContext / memo calls, so unused ones stay in the bundle; adding it lets Rollup drop them.
const reactRouterPure: Plugin = {
  name: 'maillon:react-router-pure',
  apply: 'build',
  transform(code, id) {
    if (!id.startsWith(path.dirname(reactRouterProduction))) return null;
    return { code: code.replace(/(=\s*)(React\d*\.(?:forwardRef|createContext|memo)\()/g, '$1/* @__PURE__ */ $2'), map: null };
  },
};

// zod/mini (the technician's forms) gets its own instance of zod's core in the bundle. One shared instance would be
// tree-shaken for classic zod too (the admin's and the registration's schemas) and weigh 11 KB more gzip in the
// technician area; a second instance adds about 7 KB to the admin area instead (decision 013). Schemas of the two
// instances nest as before (they only read each other's _zod internals); the server and the tests keep one instance.
const ZOD_MINI = '?zod-mini';
const zodMiniInstance: Plugin = {
  name: 'maillon:zod-mini-instance',
  apply: 'build',
  enforce: 'pre',
  async resolveId(source, importer, options) {
    const fromMini = importer?.endsWith(ZOD_MINI);
    if (source !== 'zod/mini' && !fromMini) return null;
    const resolved = await this.resolve(source, fromMini ? importer!.slice(0, -ZOD_MINI.length) : importer, {
      ...options,
      skipSelf: true,
    });
    return resolved && !resolved.external ? { ...resolved, id: resolved.id + ZOD_MINI } : resolved;
  },
};

export default defineConfig(({ command }) => ({
  plugins: [react(), tailwindcss(), reactRouterPure, zodMiniInstance],
  resolve: {
    alias: [
      { find: '@', replacement: path.resolve(__dirname, 'src') },
      ...(command === 'build' ? [{ find: /^react-router$/, replacement: reactRouterProduction }] : []),
    ],
  },
  server: { proxy: { '/api': 'http://localhost:3000' } },
  build: {
    target: 'es2022',
    // Terser: about 2 % less gzip JS than esbuild's minifier (4 KB on the technician area) for a slower build.
    minify: 'terser',
    terserOptions: { compress: { passes: 2 } },
    sourcemap: false,
    reportCompressedSize: true,
    // scripts/bundle-report.mjs reads the manifest to size each area (public, technician, admin).
    manifest: true,
    chunkSizeWarningLimit: 400,
    rollupOptions: {
      // Radix packages are built with esbuild's keepNames: __name(class, "Name") in a static block makes an unused
      // class (react-collection's OrderedDict, ~4 KB gzip) look side-effectful. The call only sets Function.name.
      treeshake: { manualPureFunctions: ['__name'] },
    },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
  },
}));
