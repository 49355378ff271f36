import * as React from 'react';
import { Loader2, Send } from 'lucide-react';
import type { SiteProposalRequest, SiteVisit } from '@maillon/common/schemas/appointments';
import { SITE_MESSAGE_MAX, SITE_PROPOSAL_MESSAGES, VISIT_SLOT_MESSAGES, type VisitWindow } from '@maillon/common/visit-slot';
import { buttonVariants, inputClass, labelClass } from '@/components/ui/recipes';
import { ApiError, NetworkError } from '@/lib/api-client';
import { proposeSiteVisit } from '../api/propose-site-visit';

type Choice = VisitWindow | 'day';
type Errors = Partial<Record<'date' | 'startTime' | 'endTime' | 'message' | 'form', string>>;

const parisDay = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());

/** The server's checks that can be made here, without loading a schema library on a public page. */
function validate(values: { date: string; window: Choice; startTime: string; endTime: string; message: string }): Errors {
  const errors: Errors = {};
  if (!values.date) errors.date = SITE_PROPOSAL_MESSAGES.dateRequired;
  else if (values.date < parisDay()) errors.date = SITE_PROPOSAL_MESSAGES.pastDate;
  if (values.window === 'range') {
    if (!values.startTime) errors.startTime = VISIT_SLOT_MESSAGES.rangeTimesRequired;
    if (!values.endTime) errors.endTime = VISIT_SLOT_MESSAGES.rangeTimesRequired;
    if (values.startTime && values.endTime && values.endTime <= values.startTime) errors.endTime = VISIT_SLOT_MESSAGES.endBeforeStart;
  }
  if (values.message.length > SITE_MESSAGE_MAX) errors.message = SITE_PROPOSAL_MESSAGES.messageTooLong;
  return errors;
}

function FieldShell({ id, label, error, hint, children }: { id: string; label: string; error?: string | undefined; hint?: string; children: React.ReactElement<Record<string, unknown>> }) {
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="grid gap-1.5">
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      {React.cloneElement(children, { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** « Proposer une autre date »: a day, an optional window and a message for the technician. */
export function ProposeForm({ token, onDone, onCancel }: { token: string; onDone: (visit: SiteVisit) => void; onCancel: () => void }) {
  const [values, setValues] = React.useState({ date: '', window: 'day' as Choice, startTime: '', endTime: '', message: '' });
  const [errors, setErrors] = React.useState<Errors>({});
  const [sending, setSending] = React.useState(false);
  const set = (field: keyof typeof values) => (event: React.ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) =>
    setValues({ ...values, [field]: event.target.value });

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const found = validate(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const body: SiteProposalRequest = {
      date: values.date,
      window: values.window === 'day' ? null : values.window,
      ...(values.window === 'range' ? { startTime: values.startTime, endTime: values.endTime } : {}),
      message: values.message.trim() || null,
    };
    setSending(true);
    try {
      onDone(await proposeSiteVisit(token, body));
    } catch (error) {
      if (error instanceof ApiError) {
        const fields = error.fields ?? {};
        setErrors({ ...fields, ...(Object.keys(fields).length === 0 ? { form: error.userMessage ?? 'Votre proposition n’a pas pu être envoyée' } : {}) });
      } else {
        setErrors({ form: error instanceof NetworkError ? 'Erreur de connexion au serveur : réessayez.' : 'Votre proposition n’a pas pu être envoyée' });
      }
    } finally {
      setSending(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="grid gap-4 rounded-md border bg-muted/40 p-3">
      <h2 className="text-base font-semibold">Proposer une autre date</h2>
      <FieldShell id="proposal-date" label="Date proposée" error={errors.date}>
        <input type="date" min={parisDay()} value={values.date} onChange={set('date')} className={`${inputClass} h-11`} />
      </FieldShell>
      <FieldShell id="proposal-window" label="Créneau">
        <select value={values.window} onChange={set('window')} className={`${inputClass} h-11 appearance-auto pr-8`}>
          <option value="day">Dans la journée</option>
          <option value="morning">Matin (8 h – 12 h)</option>
          <option value="afternoon">Après-midi (14 h – 18 h)</option>
          <option value="range">Plage horaire…</option>
        </select>
      </FieldShell>
      {values.window === 'range' ? (
        <div className="grid grid-cols-2 gap-2">
          <FieldShell id="proposal-start" label="De" error={errors.startTime}>
            <input type="time" step={900} value={values.startTime} onChange={set('startTime')} className={`${inputClass} h-11`} />
          </FieldShell>
          <FieldShell id="proposal-end" label="À" error={errors.endTime}>
            <input type="time" step={900} value={values.endTime} onChange={set('endTime')} className={`${inputClass} h-11`} />
          </FieldShell>
        </div>
      ) : null}
      <FieldShell id="proposal-message" label="Message pour le technicien (facultatif)" hint="Par exemple : horaires d’ouverture, accès, personne à demander." error={errors.message}>
        <textarea rows={3} maxLength={SITE_MESSAGE_MAX} value={values.message} onChange={set('message')} className={`${inputClass} h-auto min-h-20 resize-y`} />
      </FieldShell>
      {errors.form ? (
        <p role="alert" className="rounded-md border border-destructive/30 bg-primary-soft px-3 py-2 text-sm text-destructive">
          {errors.form}
        </p>
      ) : null}
      <div className="grid gap-2 sm:grid-cols-2">
        <button type="submit" disabled={sending} className={buttonVariants({ size: 'lg' })}>
          {sending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Send aria-hidden="true" />}
          {sending ? 'Envoi...' : 'Envoyer la proposition'}
        </button>
        <button type="button" onClick={onCancel} className={buttonVariants({ variant: 'ghost', size: 'lg' })}>
          Annuler
        </button>
      </div>
    </form>
  );
}
