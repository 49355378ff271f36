import { build } from 'esbuild';

// One ESM bundle of the server and the shared package; node_modules stay external.
await build({
  entryPoints: ['src/main.ts'],
  outfile: process.env.SERVER_OUTFILE ?? 'dist/main.js',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  packages: 'external',
  alias: {},
  plugins: [
    {
      name: 'bundle-common',
      setup(b) {
        b.onResolve({ filter: /^@maillon\/common\// }, async (args) => {
          const sub = args.path.replace('@maillon/common/', '');
          return b.resolve(`../common/src/${sub}`, { resolveDir: process.cwd(), kind: args.kind }).then((r) => r);
        });
      },
    },
  ],
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  logLevel: 'warning',
});
console.log(`server built: ${process.env.SERVER_OUTFILE ?? 'dist/main.js'}`);
