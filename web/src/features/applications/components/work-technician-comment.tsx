import { useEffect, useId, useRef, useState } from 'react';
import { TECHNICIAN_COMMENT_MAX } from '@maillon/common/field-work-rules';
import { Field } from '@/components/ui/field';
import { Textarea } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';
import { useOnlineStatus } from '@/hooks/use-online-status';
import { refusalOf } from '@/lib/offline/queued-request';
import { useSaveTechnicianComment } from '../api/work-save-technician-comment';

/** Spec §9: the comment autosaves 1 s after the last keystroke. */
const AUTOSAVE_DELAY_MS = 1000;

interface WorkTechnicianCommentProps {
  technicianId: string;
  applicationId: string;
  lotTitle: string;
  /** The saved text: the server's, or the one waiting on this phone. */
  initial: string;
  /** A text waits on this phone for the network. */
  waiting: boolean;
  disabled: boolean;
}

/** "Commentaire pour l'admin" of a lot (3 rows), saved on its own after a pause in typing, queued when offline. */
export function WorkTechnicianComment({ technicianId, applicationId, lotTitle, initial, waiting, disabled }: WorkTechnicianCommentProps) {
  const id = useId();
  const online = useOnlineStatus();
  const [text, setText] = useState(initial);
  const [state, setState] = useState<'idle' | 'waiting' | 'saving' | 'saved' | 'error'>('idle');
  const { send } = useSaveTechnicianComment();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const pending = useRef<string | null>(null);
  const sendRef = useRef(send);
  useEffect(() => {
    sendRef.current = send;
  });

  const save = (content: string) => sendRef.current({ technicianId, applicationId, lotTitle, content });

  const flush = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    const content = pending.current;
    if (content === null) return;
    pending.current = null;
    setState('saving');
    save(content).then(
      () => setState((s) => (s === 'saving' ? 'saved' : s)),
      (error: unknown) => {
        setState('error');
        toast({ title: 'Erreur de sauvegarde', description: refusalOf(error).message || 'Impossible de sauvegarder les données', variant: 'destructive' });
      },
    );
  };

  // Leaving the screen with unsaved text still saves it (queued if need be).
  useEffect(
    () => () => {
      if (pending.current !== null) {
        if (timer.current) clearTimeout(timer.current);
        void save(pending.current).catch(() => undefined);
      }
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );

  const onChange = (value: string) => {
    setText(value);
    pending.current = value;
    setState('waiting');
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(flush, AUTOSAVE_DELAY_MS);
  };

  const queued = (state === 'saving' || state === 'idle') && waiting;
  const status = queued
    ? 'Enregistré sur le téléphone, envoi au retour du réseau'
    : state === 'saving'
      ? online
        ? 'Sauvegarde...'
        : 'Enregistré sur le téléphone, envoi au retour du réseau'
      : state === 'saved'
        ? 'Commentaire enregistré'
        : state === 'error'
          ? 'Non enregistré'
          : state === 'waiting'
            ? 'Modifications en cours'
            : 'Enregistré automatiquement';

  return (
    <Field id={id} label="Commentaire pour l'admin" hint={<span aria-live="polite">{status}</span>}>
      <Textarea
        rows={3}
        value={text}
        maxLength={TECHNICIAN_COMMENT_MAX}
        disabled={disabled}
        placeholder="Disponibilités, difficultés d’accès, matériel manquant…"
        onChange={(event) => onChange(event.target.value)}
        onBlur={() => {
          if (pending.current !== null) flush();
        }}
      />
    </Field>
  );
}
