import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/dist-*/**', '**/node_modules/**', 'test-results/**', 'playwright-report/**', 'data/**', 'server/migrations/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { 'import-x': importX },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'import-x/no-cycle': 'off',
      'no-console': 'off',
    },
  },
  // Boundaries (style.md): common imports only zod; web and server never import each other.
  {
    files: ['common/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['react', 'react-*', 'drizzle-orm*', 'fastify*', '@maillon/server*', '@maillon/web*', '../../server/*', '../../web/*'], message: 'common imports only zod.' }] }],
    },
  },
  {
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['react', 'react-dom', '@maillon/web*', '**/web/src/**'], message: 'The server never imports web code.' }] }],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['drizzle-orm*', 'fastify*', '@maillon/server*', '**/server/src/**'], message: 'The web app never imports server code.' }] },
      ],
    },
  },
  // A feature never imports another feature; the app composes them (bulletproof-react).
  ...['training', 'find-missions', 'applications', 'revenue', 'packages', 'profile', 'onboarding', 'technician-dashboard', 'admin-dashboard', 'admin-moderation', 'admin-missions', 'admin-technicians', 'admin-invoices', 'admin-payouts', 'admin-shipments', 'admin-library', 'admin-settings'].map((feature) => ({
    files: [`web/src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: `./web/src/features/${feature}`, from: './web/src/features', except: [`./${feature}`, './auth'] },
            { target: `./web/src/features/${feature}`, from: './web/src/app' },
          ],
        },
      ],
    },
  })),
  {
    files: ['e2e/**/*.ts'],
    rules: { 'no-empty-pattern': 'off' },
  },
);
