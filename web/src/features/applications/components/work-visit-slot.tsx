import { useEffect, useId, useRef, useState } from 'react';
import { CalendarCheck2, CalendarClock, Check, Send, X } from 'lucide-react';
import { formatDate, formatDateTime } from '@maillon/common/format';
import { NO_SITE_EMAIL, VISIT_DATE_REQUIRED } from '@maillon/common/field-work-rules';
import type { VisitAppointment } from '@maillon/common/schemas/appointments';
import type { ProgressPatch, WorkMission } from '@maillon/common/schemas/field-work';
import {
  formatVisitSlot,
  formatVisitWindow,
  sameVisitSlot,
  VISIT_SLOT_MESSAGES,
  VISIT_WINDOW_TIMES,
  type VisitSlot,
  type VisitWindow,
} from '@maillon/common/visit-slot';
import { NetworkRequired } from '@/components/offline/pending-mark';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Field } from '@/components/ui/field';
import { Input, NativeSelect } from '@/components/ui/input';
import { toast, toastError } from '@/components/ui/use-toast';
import { useOnlineStatus } from '@/hooks/use-online-status';
import { ApiError } from '@/lib/api-client';
import { useAnswerSiteProposal, type ProposalDecision } from '../api/work-answer-site-proposal';
import { useNotifyClient } from '../api/work-notify-client';
import { useSaveProgress } from '../api/work-save-progress';
import type { DeviceOverlay } from './work-device-card';

const parisDayFormatter = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit' });

/** ISO date-time → the "YYYY-MM-DD" of a date input, as the day in France. */
export function toDateInputValue(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : parisDayFormatter.format(date);
}

type WindowChoice = VisitWindow | 'day';
interface SlotDraft {
  day: string;
  window: WindowChoice;
  start: string;
  end: string;
}

function savedDraft(progress: WorkMission['progress']): SlotDraft {
  return {
    day: toDateInputValue(progress.plannedVisitDate),
    window: progress.visitWindow ?? 'day',
    start: progress.visitWindow === 'range' ? (progress.visitStartTime ?? '') : '',
    end: progress.visitWindow === 'range' ? (progress.visitEndTime ?? '') : '',
  };
}

/** The slot as this phone last saved it: the server's, or a change still waiting in the offline queue (decision 023). */
function localDraft(progress: WorkMission['progress'], overlay: DeviceOverlay | undefined): SlotDraft {
  if (overlay?.plannedVisitDate === undefined) return savedDraft(progress);
  return savedDraft({
    ...progress,
    plannedVisitDate: overlay.plannedVisitDate ? `${overlay.plannedVisitDate}T12:00:00Z` : null,
    visitWindow: overlay.visitWindow ?? null,
    visitStartTime: overlay.visitStartTime ?? null,
    visitEndTime: overlay.visitEndTime ?? null,
  });
}

/** A complete day a person would plan (the date input gives partial years while one types). */
function isPlannableDay(value: string): boolean {
  const match = /^(\d{4})-\d{2}-\d{2}$/.exec(value);
  return value === '' || (match !== null && Number(match[1]) >= 2000 && Number(match[1]) <= 2100);
}

/** The patch that saves a slot (or clears the date). */
function slotPatch(slot: VisitSlot | null): ProgressPatch {
  if (!slot) return { plannedVisitDate: null };
  return {
    plannedVisitDate: slot.date,
    visitWindow: slot.window,
    ...(slot.window === 'range' ? { visitStartTime: slot.startTime, visitEndTime: slot.endTime } : {}),
  };
}

/** A slot typed in the fields is saved once the technician pauses. */
const SLOT_SAVE_DELAY_MS = 800;

function draftSlot(draft: SlotDraft): VisitSlot | null {
  if (!draft.day) return null;
  if (draft.window === 'day') return { date: draft.day, window: null, startTime: null, endTime: null };
  if (draft.window === 'range') return { date: draft.day, window: 'range', startTime: draft.start || null, endTime: draft.end || null };
  const times = VISIT_WINDOW_TIMES[draft.window];
  return { date: draft.day, window: draft.window, startTime: times.start, endTime: times.end };
}

function rangeError(draft: SlotDraft): { start?: string; end?: string } {
  if (draft.window !== 'range') return {};
  if (!draft.start || !draft.end) return { ...(draft.start ? {} : { start: VISIT_SLOT_MESSAGES.rangeTimesRequired }), ...(draft.end ? {} : { end: VISIT_SLOT_MESSAGES.rangeTimesRequired }) };
  return draft.end <= draft.start ? { end: VISIT_SLOT_MESSAGES.endBeforeStart } : {};
}

const WINDOW_OPTIONS: { value: WindowChoice; label: string }[] = [
  { value: 'day', label: 'Dans la journée' },
  { value: 'morning', label: 'Matin (8 h – 12 h)' },
  { value: 'afternoon', label: 'Après-midi (14 h – 18 h)' },
  { value: 'range', label: 'Plage horaire…' },
];

interface WorkVisitSlotProps {
  mission: WorkMission;
  technicianId: string;
  editable: boolean;
  /** Changes of this phone not yet on the server (offline queue). */
  overlay?: DeviceOverlay | undefined;
  onChanged: () => void;
}

/**
 * « Je passerais le : » with its time window, saved as it is typed through the offline queue (a dead zone loses nothing),
 * « Informer client » (needs the network; saves first, then informs: spec 01 §2, §8), and what the site answered through
 * its link: confirmed, or another date proposed that the technician accepts or refuses (issue 19).
 */
export function WorkVisitSlot({ mission, technicianId, editable, overlay, onChanged }: WorkVisitSlotProps) {
  const dateId = useId();
  const windowId = useId();
  const startId = useId();
  const endId = useId();
  const online = useOnlineStatus();
  const server = savedDraft(mission.progress);
  const saved = localDraft(mission.progress, overlay);
  const savedKey = JSON.stringify(saved);
  const [draft, setDraftState] = useState(saved);
  const [savedSeen, setSavedSeen] = useState(savedKey);
  // A new saved slot (from the server or this phone's queue) replaces the fields' values.
  if (savedKey !== savedSeen) {
    setSavedSeen(savedKey);
    setDraftState(saved);
  }
  const [showErrors, setShowErrors] = useState(false);
  const saveProgress = useSaveProgress();
  const notify = useNotifyClient();
  const [informing, setInforming] = useState(false);
  const errors = showErrors ? rangeError(draft) : {};
  const savedSlot = draftSlot(saved);
  const serverSlot = draftSlot(server);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const save = (slot: VisitSlot | null) =>
    saveProgress.send({ missionId: mission.id, technicianId, title: mission.title, patch: slotPatch(slot) });

  /** Saves the draft when it is a complete slot (or an emptied date) that differs from what is saved. */
  const saveDraft = (next: SlotDraft) => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    if (!isPlannableDay(next.day) || Object.keys(rangeError(next)).length > 0) return;
    const slot = draftSlot(next);
    if (sameVisitSlot(slot, savedSlot)) return;
    save(slot).catch((error: unknown) => toastError('Erreur de sauvegarde', error, 'Impossible de sauvegarder les données'));
  };

  const setDraft = (next: SlotDraft) => {
    setDraftState(next);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => saveDraft(next), SLOT_SAVE_DELAY_MS);
  };

  const informClient = async () => {
    const slot = draftSlot(draft);
    if (!slot) {
      toast({ title: 'Date manquante', description: VISIT_DATE_REQUIRED, variant: 'destructive' });
      return;
    }
    if (Object.keys(rangeError(draft)).length > 0) {
      setShowErrors(true);
      toast({ title: 'Créneau incomplet', description: VISIT_SLOT_MESSAGES.rangeTimesRequired, variant: 'destructive' });
      return;
    }
    if (timer.current) clearTimeout(timer.current);
    setInforming(true);
    try {
      if (!sameVisitSlot(slot, serverSlot)) {
        try {
          await save(slot);
        } catch (error) {
          toastError('Erreur de sauvegarde', error, 'Impossible de sauvegarder les données');
          return;
        }
      }
      try {
        await notify.mutateAsync({ missionId: mission.id, technicianId, visitDate: slot.date, visitWindow: slot.window });
        toast({ title: 'Client informé', description: `Le client a été prévenu de votre passage le ${formatVisitSlot(slot)}.`, variant: 'success' });
      } catch (error) {
        if (error instanceof ApiError && error.userMessage === NO_SITE_EMAIL) {
          toast({ title: 'Date de passage enregistrée', description: NO_SITE_EMAIL });
        } else {
          toastError('Impossible d’informer le client', error);
        }
      }
      onChanged();
    } finally {
      setInforming(false);
    }
  };

  return (
    <div className="grid gap-2">
      {editable ? (
        <>
          <div className="grid gap-2 sm:grid-cols-2">
            <Field id={dateId} label="Je passerais le :">
              <Input type="date" value={draft.day} onChange={(event) => setDraft({ ...draft, day: event.target.value })} onBlur={() => saveDraft(draft)} className="h-11" />
            </Field>
            <Field id={windowId} label="Créneau">
              <NativeSelect
                value={draft.window}
                onChange={(event) => setDraft({ ...draft, window: event.target.value as WindowChoice })}
                className="h-11"
              >
                {WINDOW_OPTIONS.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </NativeSelect>
            </Field>
          </div>
          {draft.window === 'range' ? (
            <div className="grid grid-cols-2 gap-2">
              <Field id={startId} label="De" error={errors.start}>
                <Input type="time" step={900} value={draft.start} onChange={(event) => setDraft({ ...draft, start: event.target.value })} className="h-11" />
              </Field>
              <Field id={endId} label="À" error={errors.end}>
                <Input type="time" step={900} value={draft.end} onChange={(event) => setDraft({ ...draft, end: event.target.value })} className="h-11" />
              </Field>
            </div>
          ) : null}
          <Button variant="outline" size="lg" className="w-full" disabled={!draft.day || informing || !online} onClick={() => void informClient()}>
            <Send aria-hidden="true" />
            {informing ? 'Sauvegarde...' : 'Informer client'}
          </Button>
          {!online ? <NetworkRequired>Informer le client demande une connexion ; la date est enregistrée sur le téléphone.</NetworkRequired> : null}
        </>
      ) : savedSlot ? (
        <p className="text-sm">Passage prévu le {formatVisitSlot(savedSlot)}</p>
      ) : null}
      <SiteStatus appointment={mission.appointment} saved={savedSlot} mission={mission} technicianId={technicianId} editable={editable} onChanged={onChanged} />
    </div>
  );
}

function SiteStatus({
  appointment,
  saved,
  mission,
  technicianId,
  editable,
  onChanged,
}: {
  appointment: VisitAppointment | null;
  saved: VisitSlot | null;
  mission: WorkMission;
  technicianId: string;
  editable: boolean;
  onChanged: () => void;
}) {
  const answer = useAnswerSiteProposal();
  if (!appointment) return null;
  const decide = async (decision: ProposalDecision) => {
    try {
      await answer.mutateAsync({ missionId: mission.id, technicianId, decision });
      toast(
        decision === 'accept'
          ? { title: 'Proposition acceptée', description: 'Le site a reçu la nouvelle date avec son invitation mise à jour.', variant: 'success' }
          : { title: 'Proposition refusée', description: 'Le site a été prévenu : le passage prévu est maintenu.', variant: 'success' },
      );
    } catch (error) {
      toastError(decision === 'accept' ? 'Impossible d’accepter la proposition' : 'Impossible de refuser la proposition', error);
    }
    onChanged();
  };
  const { response, decision, proposal, invitedSlot } = appointment;

  if (response === 'proposed' && !decision && proposal) {
    return (
      <div role="status" className="grid gap-2 rounded-md border border-warning/40 bg-warning-soft px-3 py-2 text-sm">
        <p className="flex items-start gap-1.5 font-medium">
          <CalendarClock className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span>Le site propose le {formatVisitSlot(proposal.slot)}</span>
        </p>
        {proposal.message ? <p className="whitespace-pre-line break-words italic">« {proposal.message} »</p> : null}
        {editable ? (
          <div className="grid grid-cols-2 gap-2">
            <Button variant="success" size="lg" loading={answer.isPending && answer.variables?.decision === 'accept'} disabled={answer.isPending} onClick={() => void decide('accept')}>
              <Check aria-hidden="true" />
              Accepter
            </Button>
            <ConfirmDialog
              trigger={
                <Button variant="outline" size="lg" disabled={answer.isPending}>
                  <X aria-hidden="true" />
                  Refuser
                </Button>
              }
              title="Refuser la date proposée ?"
              description={invitedSlot ? `Le passage reste prévu le ${formatVisitSlot(invitedSlot)} ; le site en est prévenu par e-mail.` : 'Le site en est prévenu par e-mail.'}
              confirmLabel="Refuser la proposition"
              onConfirm={() => decide('refuse')}
            />
          </div>
        ) : null}
      </div>
    );
  }

  const changed = invitedSlot && !sameVisitSlot(invitedSlot, saved);
  return (
    <div className="grid gap-1 text-sm">
      {response === 'confirmed' && appointment.respondedAt ? (
        <p role="status" className="flex items-start gap-1.5 font-medium text-success">
          <CalendarCheck2 className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span>Confirmé par le site le {formatDateTime(appointment.respondedAt)}</span>
        </p>
      ) : decision === 'accepted' && appointment.decidedAt ? (
        <p role="status" className="flex items-start gap-1.5 font-medium text-success">
          <CalendarCheck2 className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span>Date proposée par le site, acceptée le {formatDate(appointment.decidedAt)}</span>
        </p>
      ) : decision === 'refused' && appointment.decidedAt ? (
        <p className="text-muted-foreground">
          Proposition du site ({proposal ? formatVisitSlot(proposal.slot) : 'autre date'}) refusée le {formatDate(appointment.decidedAt)} : le site a été prévenu.
        </p>
      ) : appointment.invitedAt && !changed ? (
        <p className="text-muted-foreground">Site prévenu le {formatDate(appointment.invitedAt)} · en attente de sa réponse</p>
      ) : null}
      {changed && invitedSlot ? (
        <p className="rounded-md bg-info-soft px-2 py-1.5 text-info">
          Le site a été prévenu pour le {formatDate(`${invitedSlot.date}T12:00:00Z`)}, {formatVisitWindow(invitedSlot)} : cliquez sur « Informer client » pour lui envoyer la
          nouvelle date.
        </p>
      ) : null}
    </div>
  );
}
