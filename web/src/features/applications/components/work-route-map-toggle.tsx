import { lazy, Suspense, useId, useState } from 'react';
import { Map as MapIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/feedback';

// Leaflet and the outline of France load only when the technician opens the map.
const WorkRouteMap = lazy(() => import('./work-route-map').then((m) => ({ default: m.WorkRouteMap })));

/** « Voir la carte »: the lot's devices numbered in the route order, the round trip from home (issue 18). */
export function WorkRouteMapToggle({ technicianId, applicationId }: { technicianId: string; applicationId: string }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  return (
    <div className="grid gap-3">
      <Button size="lg" variant="outline" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen((v) => !v)}>
        <MapIcon aria-hidden="true" />
        {open ? 'Masquer la carte' : 'Voir la carte de la tournée'}
      </Button>
      {open ? (
        <div id={panelId}>
          <Suspense fallback={<Skeleton className="h-[55vh] min-h-72" />}>
            <WorkRouteMap technicianId={technicianId} applicationId={applicationId} />
          </Suspense>
        </div>
      ) : null}
    </div>
  );
}
