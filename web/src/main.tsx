import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { startEarlyReads } from './app/early-reads';
import { preloadRoute } from './app/router';
import './index.css';

startEarlyReads(window.location);

function render() {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

// On the technician dashboard the first render waits (at most 800 ms) for the dashboard's code, so the page appears in
// one step: a loading screen shown first would make React hold the real page back a little longer (issue 10).
const routeReady = preloadRoute(window.location.pathname);
void Promise.race([routeReady, new Promise((resolve) => setTimeout(resolve, 800))]).then(render);
