import { useId, useState } from 'react';
import { CheckCircle2, ChevronDown, Clock, GraduationCap, Lock, MapPin, WifiOff } from 'lucide-react';
import { formatDepartment } from '@maillon/common/departments';
import { formatDate, formatDuration, formatEurosShort, formatKilometres } from '@maillon/common/format';
import type { AvailableLot } from '@maillon/common/schemas/lots';
import type { Technician } from '@maillon/common/schemas/technicians';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { NEEDS_NETWORK, useOnlineStatus } from '@/hooks/use-online-status';
import { cn } from '@/lib/cn';

function Fact({ label, children, wide = false }: { label: string; children: React.ReactNode; wide?: boolean }) {
  return (
    <div className={cn('grid gap-0.5', wide && 'col-span-2')}>
      <dt className="text-xs font-medium uppercase tracking-wide text-muted-foreground">{label}</dt>
      <dd className="text-sm">{children}</dd>
    </div>
  );
}

/** « à 12 km · tournée ≈ 86 km »: from the technician's address to the nearest site, and the estimated round trip. */
export function LotDistance({ lot, className }: { lot: AvailableLot; className?: string }) {
  if (lot.distance === null) return null;
  return (
    <p className={cn('flex flex-wrap items-center gap-x-1.5 text-sm font-medium', className)}>
      <MapPin className="size-4 shrink-0 text-primary" aria-hidden="true" />
      <span>à {formatKilometres(lot.distance)}</span>
      {lot.roundTrip ? (
        <span title={`Aller-retour estimé depuis votre adresse par tous les sites, environ ${formatDuration(lot.roundTrip.duration)} de route`}>
          · tournée ≈ {formatKilometres(lot.roundTrip.distance)}
        </span>
      ) : null}
      {lot.position?.approximate ? <span className="font-normal text-muted-foreground">(position approximative)</span> : null}
    </p>
  );
}

/** The call to action of a lot, with the reason when the technician cannot apply (spec §2, decisions §4). */
export function ApplyAction({ lot, technician, applying, onApply }: { lot: AvailableLot; technician: Technician; applying: boolean; onApply: () => void }) {
  const online = useOnlineStatus();
  const blocked = (label: string, icon: React.ReactNode, hint: string) => (
    <div className="grid gap-1.5">
      <Button size="lg" variant="secondary" disabled className="w-full sm:w-auto">
        {icon} {label}
      </Button>
      <p className="text-sm text-muted-foreground">{hint}</p>
    </div>
  );
  if (lot.hasApplied) {
    return (
      <Button size="lg" variant="secondary" disabled className="w-full sm:w-auto">
        <CheckCircle2 aria-hidden="true" /> Vous avez postulé
      </Button>
    );
  }
  if (technician.status !== 'active') {
    return blocked(
      'Compte en attente de validation',
      <Clock aria-hidden="true" />,
      'Vous pourrez postuler dès que votre compte sera validé.',
    );
  }
  if (!technician.formationCompleted) {
    return blocked('Formation incomplète', <GraduationCap aria-hidden="true" />, 'Consultez toutes les ressources de formation pour postuler');
  }
  if (lot.isAssigned) {
    return blocked('Déjà assigné', <Lock aria-hidden="true" />, 'Un technicien a déjà été sélectionné pour ce lot.');
  }
  if (!online) return blocked('Postuler', <WifiOff aria-hidden="true" />, NEEDS_NETWORK);
  return (
    <Button size="lg" className="w-full sm:w-auto" loading={applying} onClick={onApply}>
      Postuler
    </Button>
  );
}

export function LotCard({ lot, technician, applying, onApply }: { lot: AvailableLot; technician: Technician; applying: boolean; onApply: () => void }) {
  const [expanded, setExpanded] = useState(false);
  const detailsId = useId();
  const mainDepartment = lot.departments[0];
  const allDepartments = [...new Set([...lot.departments, ...lot.missionDepartments])];

  return (
    <li className="min-w-0">
      <Card className={cn('grid gap-3 p-4 sm:p-5', lot.hasApplied && 'bg-muted/60 opacity-70')}>
        <h2>
          <button
            type="button"
            aria-expanded={expanded}
            aria-controls={detailsId}
            onClick={() => setExpanded((v) => !v)}
            className="flex min-h-11 w-full items-start justify-between gap-3 rounded-md text-left text-lg font-semibold leading-snug hover:text-primary focus-visible:outline-2 focus-visible:outline-ring"
          >
            <span className="min-w-0 break-words">{lot.title}</span>
            <ChevronDown className={cn('mt-1 size-5 shrink-0 transition-transform', expanded && 'rotate-180')} aria-hidden="true" />
          </button>
        </h2>
        <p className="text-sm text-muted-foreground">{lot.description}</p>
        <LotDistance lot={lot} />
        <p className="flex flex-wrap items-baseline gap-x-2">
          <span className="text-2xl font-bold tabular-nums">{formatEurosShort(lot.price)}</span>
          <span className="text-sm text-muted-foreground">HT & 100% de complétion</span>
        </p>
        {expanded ? (
          <dl id={detailsId} className="grid grid-cols-2 gap-x-4 gap-y-3 rounded-md border bg-background p-3">
            <Fact label="Défibrillateurs">{lot.defibrillatorCount}</Fact>
            <Fact label="Candidats">{lot.candidateCount}</Fact>
            <Fact label="Département principal">{mainDepartment ? formatDepartment(mainDepartment) : 'Non précisé'}</Fact>
            <Fact label="Date limite">{lot.deadline ? formatDate(lot.deadline) : 'À définir'}</Fact>
            <Fact label="Tags" wide>
              {lot.tags.length > 0 ? (
                <span className="flex flex-wrap gap-1.5">
                  {lot.tags.map((tag) => (
                    <Badge key={tag} variant="info">
                      {tag}
                    </Badge>
                  ))}
                </span>
              ) : (
                'Aucun'
              )}
            </Fact>
            <Fact label="Modèles requis" wide>
              {lot.models.length > 0 ? lot.models.join(', ') : 'Non précisés'}
            </Fact>
            <Fact label="Départements" wide>
              {allDepartments.length > 0 ? allDepartments.map(formatDepartment).join(', ') : 'Non précisés'}
            </Fact>
          </dl>
        ) : null}
        <ApplyAction lot={lot} technician={technician} applying={applying} onApply={onApply} />
      </Card>
    </li>
  );
}
