import { useEffect, useId, useRef, useState } from 'react';
import { TECHNICIAN_COMMENT_MAX } from '@maillon/common/field-work-rules';
import { Field } from '@/components/ui/field';
import { Textarea } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';
import { useSaveTechnicianComment } from '../api/work-save-technician-comment';

/** Spec §9: the comment autosaves 1 s after the last keystroke. */
const AUTOSAVE_DELAY_MS = 1000;

/** "Commentaire pour l'admin" of a lot (3 rows), saved on its own after a pause in typing. */
export function WorkTechnicianComment({ technicianId, applicationId, initial, disabled }: { technicianId: string; applicationId: string; initial: string; disabled: boolean }) {
  const id = useId();
  const [text, setText] = useState(initial);
  const [state, setState] = useState<'idle' | 'waiting' | 'saving' | 'saved' | 'error'>('idle');
  const save = useSaveTechnicianComment(technicianId, applicationId);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const pending = useRef<string | null>(null);
  const mutate = useRef(save.mutate);
  useEffect(() => {
    mutate.current = save.mutate;
  });

  const flush = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    const content = pending.current;
    if (content === null) return;
    pending.current = null;
    setState('saving');
    mutate.current(content, {
      onSuccess: () => setState((s) => (s === 'saving' ? 'saved' : s)),
      onError: () => {
        setState('error');
        toast({ title: 'Erreur de sauvegarde', description: 'Impossible de sauvegarder les données', variant: 'destructive' });
      },
    });
  };

  // Leaving the screen with unsaved text still saves it.
  useEffect(
    () => () => {
      if (pending.current !== null) {
        if (timer.current) clearTimeout(timer.current);
        mutate.current(pending.current);
      }
    },
    [],
  );

  const onChange = (value: string) => {
    setText(value);
    pending.current = value;
    setState('waiting');
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(flush, AUTOSAVE_DELAY_MS);
  };

  const status =
    state === 'saving' ? 'Sauvegarde...' : state === 'saved' ? 'Commentaire enregistré' : state === 'error' ? 'Non enregistré' : state === 'waiting' ? 'Modifications en cours' : 'Enregistré automatiquement';

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
