import type { ReactNode } from 'react';
import { Building2, FileText, GraduationCap, IdCard, Mail, MapPin, Phone } from 'lucide-react';
import { FORMATION_DONE } from '@maillon/common/constants';
import { formatDepartment } from '@maillon/common/departments';
import { TECHNICIAN_STATUS_LABELS } from '@maillon/common/enums';
import { formatDate, formatEuros } from '@maillon/common/format';
import type { AdminTechnician } from '@maillon/common/schemas/admin-technicians';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import type { ModerationAction } from '../api/moderate-technician';

const STATUS_VARIANT = { pending: 'warning', active: 'success', inactive: 'secondary', rejected: 'danger' } as const;

interface TechnicianCardProps {
  technician: AdminTechnician;
  busy: boolean;
  onModerate: (action: ModerationAction) => Promise<unknown>;
  onDelete: () => Promise<unknown>;
}

function DocumentLink({ href, label, name, icon }: { href: string | null; label: string; name: string | null; icon: ReactNode }) {
  if (!href) {
    return (
      <span className="inline-flex items-center gap-1.5 text-sm text-muted-foreground [&_svg]:size-4">
        {icon} {label} : non fourni
      </span>
    );
  }
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      className="inline-flex items-center gap-1.5 text-sm font-medium text-primary underline-offset-4 hover:underline [&_svg]:size-4"
      title={name ?? undefined}
    >
      {icon} {label}
    </a>
  );
}

/** One technician on the admin Techniciens tab, with the actions its status allows (spec §4). */
export function TechnicianCard({ technician: t, busy, onModerate, onDelete }: TechnicianCardProps) {
  const name = `${t.firstName} ${t.lastName}`;
  const trained = t.formationStatus === FORMATION_DONE;
  return (
    <Card className="flex flex-col" aria-label={name}>
      <CardHeader className="flex-row items-start justify-between gap-3">
        <div className="grid min-w-0 gap-1">
          <CardTitle className="truncate text-lg">{name}</CardTitle>
          <p className="text-xs text-muted-foreground">Inscrit le {formatDate(t.createdAt)}</p>
        </div>
        <Badge variant={STATUS_VARIANT[t.status]}>{TECHNICIAN_STATUS_LABELS[t.status]}</Badge>
      </CardHeader>
      <CardContent className="grid flex-1 gap-3 text-sm">
        <dl className="grid gap-1.5">
          <div className="flex items-center gap-2 [&_svg]:size-4 [&_svg]:text-muted-foreground">
            <Mail aria-hidden="true" />
            <dt className="sr-only">Email</dt>
            <dd className="min-w-0 truncate">
              <a href={`mailto:${t.email}`} className="hover:underline">
                {t.email}
              </a>
            </dd>
          </div>
          <div className="flex items-center gap-2 [&_svg]:size-4 [&_svg]:text-muted-foreground">
            <Phone aria-hidden="true" />
            <dt className="sr-only">Téléphone</dt>
            <dd>{t.phone || 'Téléphone non renseigné'}</dd>
          </div>
          {t.companyName ? (
            <div className="flex items-center gap-2 [&_svg]:size-4 [&_svg]:text-muted-foreground">
              <Building2 aria-hidden="true" />
              <dt className="sr-only">Entreprise</dt>
              <dd>
                {t.companyName}
                {t.siret ? <span className="text-muted-foreground"> · SIRET {t.siret}</span> : null}
              </dd>
            </div>
          ) : null}
          <div className="flex items-start gap-2 [&_svg]:mt-0.5 [&_svg]:size-4 [&_svg]:text-muted-foreground">
            <MapPin aria-hidden="true" />
            <dt className="sr-only">Départements</dt>
            <dd className="flex flex-wrap gap-1">
              {t.departments.length ? (
                t.departments.map((code) => (
                  <Badge key={code} variant="outline">
                    {formatDepartment(code)}
                  </Badge>
                ))
              ) : (
                <span className="text-muted-foreground">Aucun département</span>
              )}
            </dd>
          </div>
        </dl>

        {t.comments ? (
          <blockquote className="rounded-md border-l-4 border-border bg-muted/60 px-3 py-2 text-sm italic text-foreground/80">
            {t.comments}
          </blockquote>
        ) : null}

        <div className="flex flex-wrap gap-x-5 gap-y-1">
          <DocumentLink href={t.cvUrl} name={t.cvName} label="CV" icon={<FileText aria-hidden="true" />} />
          <DocumentLink
            href={t.identityDocumentUrl}
            name={t.identityDocumentName}
            label="Pièce d'identité"
            icon={<IdCard aria-hidden="true" />}
          />
        </div>

        <dl className="grid grid-cols-3 gap-2 rounded-md bg-muted/60 p-3 text-center">
          <div>
            <dt className="text-xs text-muted-foreground">Gains</dt>
            <dd className="font-semibold tabular-nums">{formatEuros(t.totalEarnings)}</dd>
          </div>
          <div>
            <dt className="text-xs text-muted-foreground">Missions terminées</dt>
            <dd className="font-semibold tabular-nums">{t.completedMissions}</dd>
          </div>
          <div>
            <dt className="text-xs text-muted-foreground">Lots en cours</dt>
            <dd className="font-semibold tabular-nums">{t.activeLots}</dd>
          </div>
        </dl>

        <p
          className={
            trained ? 'flex items-center gap-2 font-medium text-success' : 'flex items-center gap-2 font-medium text-warning'
          }
        >
          <GraduationCap className="size-4" aria-hidden="true" />
          {trained ? 'Formation complétée' : 'Formation incomplète'}
          <span className="font-normal text-muted-foreground">
            ({t.resourcesRead}/{t.resourcesTotal} modules)
          </span>
        </p>
      </CardContent>
      <CardFooter className="justify-end border-t pt-4 sm:pt-4">
        {t.status === 'pending' ? (
          <>
            <ConfirmDialog
              title={`Rejeter ${name} ?`}
              description="Le compte ne pourra plus se connecter. Vous pourrez le remettre en attente de modération depuis l’onglet Désactivés."
              confirmLabel="Rejeter"
              onConfirm={() => onModerate('reject')}
              trigger={
                <Button variant="outline" disabled={busy}>
                  Rejeter
                </Button>
              }
            />
            <Button variant="success" disabled={busy} onClick={() => void onModerate('approve')}>
              Approuver
            </Button>
          </>
        ) : t.status === 'active' ? (
          <ConfirmDialog
            title={`Désactiver ${name} ?`}
            description="Le technicien est déconnecté immédiatement et ne pourra plus se connecter tant qu’il n’est pas réactivé."
            confirmLabel="Désactiver"
            onConfirm={() => onModerate('deactivate')}
            trigger={
              <Button variant="outline" disabled={busy}>
                Désactiver
              </Button>
            }
          />
        ) : (
          <>
            <ConfirmDialog
              title={`Supprimer définitivement ${name} ?`}
              description="Le compte, ses candidatures, factures, colis et documents seront supprimés. Cette action est irréversible."
              confirmLabel="Supprimer définitivement"
              onConfirm={onDelete}
              trigger={
                <Button variant="outline" className="text-destructive" disabled={busy}>
                  Supprimer
                </Button>
              }
            />
            <Button variant="default" disabled={busy} onClick={() => void onModerate('restore')}>
              Remettre
            </Button>
          </>
        )}
      </CardFooter>
    </Card>
  );
}
