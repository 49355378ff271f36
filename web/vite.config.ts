import fs from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { VitePWA } from 'vite-plugin-pwa';
import { technicianAreaFiles } from '../scripts/lib/precache.mjs';

const outDir = path.resolve(__dirname, 'dist');

// A plain build: Vite's defaults and splitting by route and tab (decision 017). No plugin rewrites a library's code.
// The PWA plugin only adds files beside the build: the web app manifest and a Workbox service worker (decision 023).
export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    VitePWA({
      // The technician's field app: the service worker controls /technician/ only (the admin area never sees it).
      scope: '/technician/',
      registerType: 'prompt',
      injectRegister: false,
      manifestFilename: 'manifest.webmanifest',
      includeAssets: ['favicon.svg', 'icons/apple-touch-icon.png'],
      manifest: {
        id: '/technician/dashboard',
        name: 'Maillon — espace technicien',
        short_name: 'Maillon',
        description: 'Vos lots de défibrillateurs, vos passages et vos colis, même sans réseau.',
        lang: 'fr',
        dir: 'ltr',
        start_url: '/technician/dashboard',
        scope: '/technician/',
        display: 'standalone',
        orientation: 'portrait',
        theme_color: '#c8102e',
        background_color: '#ffffff',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
        globIgnores: ['.vite/**', 'og-image.svg'],
        // The technician area's code only: chunks reached through the admin's routes are left to the network.
        manifestTransforms: [
          (entries) => {
            const file = path.join(outDir, '.vite/manifest.json');
            if (!fs.existsSync(file)) return { manifest: entries, warnings: ['Vite manifest missing: every chunk precached'] };
            const read = (name: string) => JSON.parse(fs.readFileSync(path.join(outDir, '.vite', name), 'utf8'));
            const keep = technicianAreaFiles(read('manifest.json'), read('ssr-manifest.json'));
            return { manifest: entries.filter((entry) => !entry.url.startsWith('assets/') || keep.has(entry.url)), warnings: [] };
          },
        ],
        navigateFallback: '/index.html',
        // Never the app shell for the API or a download (PDF, CSV, files): those go to the network.
        navigateFallbackDenylist: [/^\/api(\/|$)/],
        navigateFallbackAllowlist: [/^\/technician(\/|$)/],
        inlineWorkboxRuntime: true,
        cleanupOutdatedCaches: true,
        clientsClaim: true,
        skipWaiting: false,
      },
    }),
  ],
  resolve: { alias: { '@': path.resolve(__dirname, 'src') } },
  server: { proxy: { '/api': 'http://localhost:3000' } },
  build: {
    outDir,
    target: 'es2022',
    sourcemap: false,
    // scripts/bundle-report.mjs reads both manifests: the chunks and their imports, and which chunk holds each module.
    manifest: true,
    ssrManifest: true,
    chunkSizeWarningLimit: 400,
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
  },
});
