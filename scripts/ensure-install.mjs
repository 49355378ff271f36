// Installs what is missing: npm dependencies (when node_modules is absent or stale) and, with --browser,
// Debian's Chromium for the browser tests. Never downloads a browser build of its own.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const run = (cmd) => execSync(cmd, { cwd: root, stdio: 'inherit', env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' } });

function dependenciesInstalled() {
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  if (!fs.existsSync(marker)) return false;
  const lock = path.join(root, 'package-lock.json');
  return !fs.existsSync(lock) || fs.statSync(marker).mtimeMs >= fs.statSync(lock).mtimeMs - 1000;
}

if (!dependenciesInstalled()) {
  console.log('Installation des dépendances npm…');
  run('npm install --no-audit --no-fund');
}

if (process.argv.includes('--browser')) {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!fs.existsSync(chromium)) {
    console.log('Installation de Chromium (Debian)…');
    const sudo = process.getuid && process.getuid() !== 0 ? 'sudo ' : '';
    run(`${sudo}apt-get update -qq`);
    run(`${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-liberation`);
  }
}
