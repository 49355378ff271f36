import fs from 'node:fs';
import { builtinModules } from 'node:module';
import { build } from 'esbuild';

// One ESM bundle of the server and the shared package; node_modules stay external.
const result = await build({
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
  metafile: true,
});

// Production installs may leave devDependencies out: whatever the bundle imports must be a dependency.
const { dependencies = {} } = JSON.parse(fs.readFileSync('package.json', 'utf8'));
const builtins = new Set(builtinModules);
const packageOf = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
const undeclared = new Set();
for (const output of Object.values(result.metafile.outputs)) {
  for (const { path: specifier, external } of output.imports) {
    if (!external || specifier.startsWith('node:') || builtins.has(specifier)) continue;
    if (!dependencies[packageOf(specifier)]) undeclared.add(packageOf(specifier));
  }
}
if (undeclared.size) {
  console.error(`Le serveur importe des paquets absents des dependencies de server/package.json : ${[...undeclared].join(', ')}`);
  process.exit(1);
}
console.log(`server built: ${process.env.SERVER_OUTFILE ?? 'dist/main.js'}`);
