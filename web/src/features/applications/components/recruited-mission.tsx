import { useId, useState } from 'react';
import { Link } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { Ban, CalendarClock, CheckCheck, ChevronDown, MessageSquare, Package, Route } from 'lucide-react';
import { formatDepartment } from '@maillon/common/departments';
import { formatDate, formatDistance, formatEuros, formatEurosShort } from '@maillon/common/format';
import type { TechnicianApplication } from '@maillon/common/schemas/applications';
import { ADDRESS_MISSING, ALL_DEVICES_REQUIRED } from '@maillon/common/field-work-rules';
import type { ApplicationWork, SortRouteResponse } from '@maillon/common/schemas/field-work';
import type { Technician } from '@maillon/common/schemas/technicians';
import { NetworkRequired } from '@/components/offline/pending-mark';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { ErrorState, Skeleton } from '@/components/ui/feedback';
import { toast, toastError } from '@/components/ui/use-toast';
import { paths } from '@/config/paths';
import { useOnlineStatus } from '@/hooks/use-online-status';
import { ApiError } from '@/lib/api-client';
import { useLocalChanges, type LocalChange } from '@/lib/offline/use-queue';
import { useCancelApplication } from '../api/work-cancel-application';
import { useCompleteApplication } from '../api/work-complete-application';
import { applicationWorkQueryKey, useApplicationWork } from '../api/work-get-application-work';
import { deviceTarget } from '../api/work-save-progress';
import { lotCommentTarget } from '../api/work-save-technician-comment';
import { useApplicationParts } from '../api/work-get-parts';
import { useSortRoute } from '../api/work-sort-route';
import { AdminComment, ApplicationStatusBadge, Fact, formatAppliedAt } from './application-details';
import { WorkDeviceCard, type DeviceOverlay } from './work-device-card';
import { toDateInputValue } from './work-visit-slot';
import { WorkRouteMapToggle } from './work-route-map-toggle';
import { WorkTechnicianComment } from './work-technician-comment';

export interface RecruitedMissionProps {
  /** A Recruté (or Terminé) application from GET /api/applications, with its lot. */
  application: TechnicianApplication;
  /** The signed-in technician. */
  technician: Technician;
}

type WorkLot = ApplicationWork['lot'];

function LotFacts({ lot }: { lot: WorkLot }) {
  const mainDepartment = lot.departments[0];
  return (
    <dl className="grid grid-cols-2 gap-x-4 gap-y-3 rounded-md border bg-background p-3">
      <Fact label="Revenu final">{formatEuros(lot.finalRevenue)}</Fact>
      <Fact label="Défibrillateurs">
        {lot.defibrillatorsDone} / {lot.defibrillatorsSum} effectués
      </Fact>
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
      <Fact label="Modèles" wide>
        {lot.models.length > 0 ? lot.models.join(', ') : 'Non précisés'}
      </Fact>
      <Fact label="Départements" wide>
        {lot.departments.length > 0 ? lot.departments.map(formatDepartment).join(', ') : 'Non précisés'}
      </Fact>
    </dl>
  );
}

function AdminMessages({ messages }: { messages: ApplicationWork['adminMessages'] }) {
  if (messages.length === 0) return null;
  return (
    <section aria-label="Messages de l’administrateur" className="grid gap-2">
      <h3 className="flex items-center gap-2 text-sm font-semibold">
        <MessageSquare className="size-4" aria-hidden="true" />
        Messages de l’administrateur
      </h3>
      <ul className="grid gap-2">
        {messages.map((message) => (
          <li key={message.id} className="rounded-md border border-info/20 bg-info-soft px-3 py-2 text-sm">
            <p className="text-xs text-info">{formatDate(message.createdAt)}</p>
            <p className="whitespace-pre-line break-words">{message.content}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** What this phone changed on each device, in the order it was changed (queued or just delivered). */
function deviceOverlays(changes: LocalChange[]): Map<string, DeviceOverlay> {
  const overlays = new Map<string, DeviceOverlay>();
  for (const { request, waiting } of changes) {
    if (!request.target.startsWith('mission:')) continue;
    const overlay = overlays.get(request.target) ?? { waiting: false };
    // The toggle and the date say it in their body; the visit report (drafts, photos, the complete report) in `shows`.
    const values = request.shows ?? request.json ?? {};
    if (typeof values.isCompleted === 'boolean') overlay.isCompleted = values.isCompleted;
    if ('plannedVisitDate' in values) {
      overlay.plannedVisitDate = (values.plannedVisitDate as string | null) ?? null;
      overlay.visitWindow = (values.visitWindow as DeviceOverlay['visitWindow']) ?? null;
      overlay.visitStartTime = (values.visitStartTime as string | null | undefined) ?? null;
      overlay.visitEndTime = (values.visitEndTime as string | null | undefined) ?? null;
    }
    overlay.waiting ||= waiting;
    if (waiting && request.url.includes('/visit-report')) overlay.reportWaiting = true;
    overlays.set(request.target, overlay);
  }
  return overlays;
}

/** The next visit still to make: the earliest planned day, today or later, among the devices not done. */
function nextVisit(missions: ApplicationWork['missions'], overlays: Map<string, DeviceOverlay>): { day: string; title: string } | null {
  const today = toDateInputValue(new Date().toISOString());
  let next: { day: string; title: string } | null = null;
  for (const mission of missions) {
    const overlay = overlays.get(deviceTarget(mission.id));
    if (overlay?.isCompleted ?? mission.progress.isCompleted) continue;
    const day = overlay?.plannedVisitDate !== undefined ? (overlay.plannedVisitDate ?? '') : toDateInputValue(mission.progress.plannedVisitDate);
    if (day && day >= today && (!next || day < next.day)) next = { day, title: mission.title };
  }
  return next;
}

/** Spec §2 Recruté view: the lot, its devices with planning, completion and directions, and the lot's actions. */
export function RecruitedMission({ application, technician }: RecruitedMissionProps) {
  const headingId = useId();
  const queryClient = useQueryClient();
  const work = useApplicationWork(technician.id, application.id);
  // Parts coming for each device: an extra the view shows when it can (offline, the cards simply show none).
  const parts = useApplicationParts(technician.id, application.id);
  const partsByMission = new Map((parts.data ?? []).map((entry) => [entry.missionId, entry.parts]));
  const [route, setRoute] = useState<SortRouteResponse | null>(null);
  const sortRoute = useSortRoute(technician.id, application.id);
  const complete = useCompleteApplication();
  const cancel = useCancelApplication();
  const online = useOnlineStatus();
  const local = useLocalChanges();

  const refresh = () => void queryClient.invalidateQueries({ queryKey: applicationWorkQueryKey(technician.id, application.id) });

  const lot = work.data?.lot;
  const title = lot?.title ?? application.lot.title;
  const recruited = (work.data?.application.status ?? application.status) === 'Recruté';

  const sort = () =>
    sortRoute.mutate(undefined, {
      onSuccess: (result) => {
        setRoute(result);
        toast({
          title: result.message,
          description:
            result.savedKm > 0
              ? `Vous économisez ${formatDistance(result.savedKm * 1000)} sur votre tournée (${formatDistance(result.totalDistance)} au total).`
              : `Votre tournée était déjà la plus courte (${formatDistance(result.totalDistance)} au total).`,
          variant: 'success',
        });
      },
      onError: (error) => {
        const message = error instanceof ApiError ? error.userMessage : undefined;
        if (message === ADDRESS_MISSING) toast({ title: ADDRESS_MISSING, description: 'Complétez votre adresse dans l’onglet Mon compte.', variant: 'destructive' });
        else if (message === 'Informations du technicien non disponibles') toast({ title: message, variant: 'destructive' });
        else toastError('Erreur de tri', error);
      },
    });

  const finish = () =>
    complete.mutateAsync(application.id).then(
      () => toast({ title: 'Mission terminée', description: 'Votre facture est à soumettre dans Revenus & Virements.', variant: 'success' }),
      (error: unknown) => toastError('Impossible de marquer la mission comme terminée', error),
    );

  const cancelMission = () =>
    cancel.mutateAsync(application.id).then(
      () => toast({ title: 'Mission annulée', description: 'Le lot est de nouveau proposé aux techniciens.' }),
      (error: unknown) => toastError('Impossible d’annuler la mission', error),
    );

  const legs = new Map(route?.stops.map((stop) => [stop.missionId, stop]) ?? []);
  const missions = work.data?.missions ?? [];
  const overlays = deviceOverlays(local);
  const isDone = (mission: ApplicationWork['missions'][number]) => overlays.get(deviceTarget(mission.id))?.isCompleted ?? mission.progress.isCompleted;
  const left = missions.filter((m) => !isDone(m)).length;
  const next = nextVisit(missions, overlays);
  const commentChanges = local.filter((change) => change.request.target === lotCommentTarget(application.id));
  const lastComment = commentChanges.at(-1);

  return (
    <Card role="region" aria-labelledby={headingId} className="grid grid-cols-1 gap-4 p-4 sm:p-5">
      {recruited && missions.length > 0 ? (
        <div className="sticky top-[3.6rem] z-20 -mx-4 -mt-4 flex items-center gap-3 rounded-t-lg border-b bg-card/95 px-4 py-2 backdrop-blur sm:-mx-5 sm:-mt-5 sm:px-5 lg:top-0">
          <p className="shrink-0 text-sm font-semibold tabular-nums">
            {missions.length - left} / {missions.length} effectués
          </p>
          <p className="flex min-w-0 items-center gap-1.5 text-xs text-muted-foreground">
            <CalendarClock className="size-4 shrink-0" aria-hidden="true" />
            <span className="truncate">{next ? `Prochain passage : ${formatDate(`${next.day}T12:00:00Z`)} — ${next.title}` : 'Aucun passage prévu'}</span>
          </p>
        </div>
      ) : null}
      <header className="grid gap-2">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <h2 id={headingId} className="min-w-0 break-words text-lg font-semibold leading-snug">
            {title}
          </h2>
          <ApplicationStatusBadge status={work.data?.application.status ?? application.status} />
        </div>
        <p className="text-sm text-muted-foreground">{lot?.description || application.lot.description}</p>
        <p className="text-sm text-muted-foreground">Candidature du {formatAppliedAt(work.data?.application.appliedAt ?? application.appliedAt)}</p>
        <p className="flex flex-wrap items-baseline gap-x-2">
          <span className="text-2xl font-bold tabular-nums">{formatEurosShort(lot?.price ?? application.lot.price)}</span>
          <span className="text-sm text-muted-foreground">HT & 100% de complétion</span>
        </p>
      </header>

      {work.isPending ? (
        <div className="grid gap-3" aria-busy="true">
          <Skeleton className="h-32" />
          <Skeleton className="h-48" />
        </div>
      ) : work.isError ? (
        <ErrorState error={work.error} />
      ) : (
        <>
          {recruited ? (
            <div className="grid gap-2">
              <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
                <ConfirmDialog
                  trigger={
                    <Button size="lg" disabled={!work.data.canFinish || !online}>
                      <CheckCheck aria-hidden="true" />
                      Marquer comme terminé
                    </Button>
                  }
                  title="Clôturer cette mission ?"
                  description={`Tous les défibrillateurs sont effectués. Votre facture de ${formatEuros(work.data.lot.finalRevenue)} HT sera à soumettre dans Revenus & Virements.`}
                  confirmLabel="Marquer comme terminé"
                  cancelLabel="Retour"
                  destructive={false}
                  onConfirm={finish}
                />
                <ConfirmDialog
                  trigger={
                    <Button size="lg" variant="outline" disabled={work.data.cancellationBlocked || !online}>
                      <Ban aria-hidden="true" />
                      Annuler
                    </Button>
                  }
                  title="Annuler cette mission ?"
                  description="Vous ne serez plus recruté sur ce lot et il sera de nouveau proposé aux techniciens."
                  confirmLabel="Annuler la mission"
                  cancelLabel="Retour"
                  onConfirm={cancelMission}
                />
              </div>
              {!work.data.canFinish ? (
                <p className="rounded-md bg-warning-soft px-3 py-2 text-sm text-warning" role="note">
                  {ALL_DEVICES_REQUIRED}
                </p>
              ) : null}
              {!online ? <NetworkRequired>Terminer, annuler et trier la tournée demandent une connexion.</NetworkRequired> : null}
              {work.data.cancellationBlocked ? (
                <p className="text-xs text-muted-foreground">Annulation impossible : un défibrillateur est déjà traité ou un colis a été expédié.</p>
              ) : null}
            </div>
          ) : null}

          <details className="group rounded-md border bg-background [&_summary::-webkit-details-marker]:hidden">
            <summary className="flex min-h-11 cursor-pointer items-center justify-between gap-2 px-3 text-sm font-medium">
              Détails du lot
              <ChevronDown className="size-4 transition-transform group-open:rotate-180" aria-hidden="true" />
            </summary>
            <div className="border-t p-2">
              <LotFacts lot={work.data.lot} />
            </div>
          </details>
          <AdminComment comment={work.data.application.adminComment} />
          <AdminMessages messages={work.data.adminMessages} />

          <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
            {recruited ? (
              <Button size="lg" variant="secondary" onClick={sort} disabled={sortRoute.isPending || left === 0 || !online}>
                <Route aria-hidden="true" />
                {sortRoute.isPending ? 'Tri en cours...' : 'Trier pour économiser ma route'}
              </Button>
            ) : null}
            <Button asChild size="lg" variant="outline">
              <Link to={paths.technician.dashboard.getHref({ tab: 'packages', search: title })}>
                <Package aria-hidden="true" />
                Colis pour cette mission
              </Link>
            </Button>
          </div>
          <WorkRouteMapToggle technicianId={technician.id} applicationId={application.id} />
          {route && route.stops.length > 0 ? (
            <p className="text-sm text-muted-foreground">
              Tournée triée : {formatDistance(route.totalDistance)} aller-retour depuis votre adresse
              {route.returnDistance !== null ? `, dont ${formatDistance(route.returnDistance)} pour le retour` : ''}
              {route.source === 'estimate' ? ' (estimation)' : ''}.
            </p>
          ) : null}

          <section aria-label="Défibrillateurs à traiter" className="grid gap-3">
            <h3 className="flex flex-wrap items-baseline justify-between gap-2 text-base font-semibold">
              Défibrillateurs à traiter
              <span className="text-sm font-normal text-muted-foreground">
                {missions.length - left} / {missions.length} effectués
              </span>
            </h3>
            {missions.length === 0 ? (
              <p className="rounded-md border border-dashed px-3 py-6 text-center text-sm text-muted-foreground">Aucun défibrillateur dans ce lot</p>
            ) : (
              <ul className="grid gap-2">
                {missions.map((mission, index) => (
                  <WorkDeviceCard
                    key={mission.id}
                    mission={mission}
                    index={index}
                    technicianId={technician.id}
                    editable={recruited}
                    leg={legs.get(mission.id)}
                    overlay={overlays.get(deviceTarget(mission.id))}
                    parts={partsByMission.get(mission.id)}
                    onChanged={refresh}
                  />
                ))}
              </ul>
            )}
          </section>

          <WorkTechnicianComment
            technicianId={technician.id}
            applicationId={application.id}
            lotTitle={title}
            initial={typeof lastComment?.request.json?.content === 'string' ? lastComment.request.json.content : work.data.technicianComment.content}
            waiting={commentChanges.some((change) => change.waiting)}
            disabled={!recruited}
          />
        </>
      )}
    </Card>
  );
}
