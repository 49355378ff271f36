import { useId, useState } from 'react';
import { ChevronDown } from 'lucide-react';
import { formatDepartment } from '@maillon/common/departments';
import { formatDate, formatEuros, formatEurosShort } from '@maillon/common/format';
import type { TechnicianApplication } from '@maillon/common/schemas/applications';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { cn } from '@/lib/cn';
import { AdminComment, ApplicationStatusBadge, Fact, formatAppliedAt } from './application-details';

/** Collapsible card of an application that is not (or no longer) a mission in progress (spec §2). */
export function ApplicationCard({ application }: { application: TechnicianApplication }) {
  const [expanded, setExpanded] = useState(false);
  const detailsId = useId();
  const { lot } = application;
  const finished = application.status === 'Terminé';

  return (
    <li className="min-w-0">
      <Card className="overflow-hidden">
        <button
          type="button"
          aria-expanded={expanded}
          aria-controls={detailsId}
          onClick={() => setExpanded((v) => !v)}
          className="grid w-full gap-2 p-4 text-left hover:bg-muted/50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring sm:p-5"
        >
          <span className="flex items-start justify-between gap-3">
            <span className="min-w-0 break-words text-base font-semibold leading-snug">{lot.title}</span>
            <ChevronDown className={cn('mt-0.5 size-5 shrink-0 transition-transform', expanded && 'rotate-180')} aria-hidden="true" />
          </span>
          <span className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
            <ApplicationStatusBadge status={application.status} />
            <span className="font-semibold tabular-nums">{formatEurosShort(lot.price)} HT</span>
            <span className="text-muted-foreground">Candidature du {formatAppliedAt(application.appliedAt)}</span>
          </span>
        </button>
        {expanded ? (
          <div id={detailsId} className="grid min-w-0 gap-3 border-t px-4 pb-4 pt-3 sm:px-5 sm:pb-5">
            <p className="text-sm text-muted-foreground">{lot.description}</p>
            <dl className="grid grid-cols-2 gap-x-4 gap-y-3">
              <Fact label="Prix">{formatEurosShort(lot.price)} HT</Fact>
              <Fact label="Date de candidature">{formatAppliedAt(application.appliedAt)}</Fact>
              <Fact label="Départements">{lot.departments.length > 0 ? lot.departments.map(formatDepartment).join(', ') : 'Non précisés'}</Fact>
              <Fact label="Date limite">{lot.deadline ? formatDate(lot.deadline) : 'À définir'}</Fact>
              {finished ? (
                <Fact label="Revenu final">{formatEuros(application.finalRevenue ?? 0)}</Fact>
              ) : (
                <Fact label="Candidats">{lot.candidateCount}</Fact>
              )}
            </dl>
            {finished && application.devices ? (
              <div className="grid min-w-0 gap-2">
                <h3 className="text-sm font-semibold">Défibrillateurs traités</h3>
                {application.devices.length === 0 ? (
                  <p className="text-sm text-muted-foreground">Aucun défibrillateur</p>
                ) : (
                  <ul className="divide-y rounded-md border">
                    {application.devices.map((device) => (
                      <li key={device.id} className="flex items-center justify-between gap-3 px-3 py-2 text-sm">
                        <span className="min-w-0">
                          <span className="block truncate font-mono text-xs">{device.serialNumber ?? 'Sans numéro de série'}</span>
                          <span className="block truncate text-muted-foreground">{device.clientName ?? 'Client non précisé'}</span>
                        </span>
                        <Badge variant={device.done ? 'success' : 'secondary'}>{device.done ? 'Effectué' : 'Non traité'}</Badge>
                      </li>
                    ))}
                  </ul>
                )}
              </div>
            ) : null}
            <AdminComment comment={application.adminComment} />
          </div>
        ) : null}
      </Card>
    </li>
  );
}
