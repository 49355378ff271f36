import { useId, useRef } from 'react';
import { CalendarDays, Copy, RefreshCw } from 'lucide-react';
import { formatDate } from '@maillon/common/format';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { ErrorState, Skeleton } from '@/components/ui/feedback';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { toast, toastError } from '@/components/ui/use-toast';
import { useCalendarFeed } from '../api/get-calendar-feed';
import { useRegenerateCalendarFeed } from '../api/regenerate-calendar-feed';
import { ProfileCard } from './profile-card';

/**
 * The technician's private calendar address (issue 19): its planned visits in any calendar app. Only a hash of the
 * address's token is stored, so the address is shown once, when created; « Régénérer » makes a new one and the old one
 * stops working at once.
 */
export function CalendarFeedCard({ technicianId }: { technicianId: string }) {
  const feed = useCalendarFeed(technicianId);
  const regenerate = useRegenerateCalendarFeed(technicianId);
  const inputRef = useRef<HTMLInputElement>(null);
  const urlId = useId();
  const url = regenerate.data?.url ?? null;
  const active = Boolean(feed.data?.active || url);

  const create = async () => {
    try {
      await regenerate.mutateAsync();
      toast({ title: active ? 'Nouvelle adresse créée' : 'Adresse d’agenda créée', description: 'Copiez-la maintenant : elle ne sera plus affichée.', variant: 'success' });
    } catch (error) {
      toastError('Erreur lors de la création de l’adresse d’agenda', error);
    }
  };

  const copy = async () => {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      toast({ title: 'Adresse copiée', description: 'Collez-la dans votre agenda (« Ajouter un agenda à partir d’une URL »).', variant: 'success' });
    } catch {
      inputRef.current?.select();
      toast({ title: 'Copie impossible', description: 'L’adresse est sélectionnée : copiez-la avec le menu de votre téléphone.' });
    }
  };

  return (
    <ProfileCard
      title="Mon agenda"
      icon={<CalendarDays aria-hidden="true" />}
      description="Vos visites planifiées dans Google Agenda, Outlook ou Calendrier, avec l’adresse et le téléphone de chaque site. Cette adresse est personnelle : ne la partagez pas."
    >
      {feed.isPending ? <Skeleton className="h-10 w-full" /> : null}
      {feed.isError ? <ErrorState error={feed.error} /> : null}
      {url ? (
        <div className="grid gap-2">
          <Field id={urlId} label="Adresse de votre agenda" hint="Elle ne sera plus affichée après avoir quitté cette page.">
            <Input ref={inputRef} readOnly value={url} onFocus={(event) => event.currentTarget.select()} className="font-mono text-xs" />
          </Field>
          <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
            <Button onClick={() => void copy()}>
              <Copy aria-hidden="true" />
              Copier
            </Button>
            {/* webcal: opens the subscription in the phone's calendar app (Apple Calendrier, Outlook). */}
            <a href={url.replace(/^https?:/, 'webcal:')} className="text-sm font-medium text-primary underline-offset-4 hover:underline">
              S’abonner sur cet appareil
            </a>
          </div>
        </div>
      ) : feed.data?.active ? (
        <p className="text-sm text-muted-foreground">
          Adresse créée le {formatDate(feed.data.createdAt)}. Par sécurité, elle n’est affichée qu’à sa création : « Régénérer » en crée une nouvelle.
        </p>
      ) : feed.data ? (
        <p className="text-sm text-muted-foreground">Vous n’avez pas encore d’adresse d’agenda.</p>
      ) : null}
      {feed.data ? (
        active ? (
          <ConfirmDialog
            trigger={
              <Button variant="outline" className="justify-self-start" loading={regenerate.isPending}>
                <RefreshCw aria-hidden="true" />
                Régénérer
              </Button>
            }
            title="Régénérer l’adresse de votre agenda ?"
            description="L’ancienne adresse cessera de fonctionner immédiatement : les agendas abonnés devront utiliser la nouvelle."
            confirmLabel="Régénérer"
            onConfirm={create}
          />
        ) : (
          <Button variant="outline" className="justify-self-start" loading={regenerate.isPending} onClick={() => void create()}>
            <CalendarDays aria-hidden="true" />
            Créer mon adresse d’agenda
          </Button>
        )
      ) : null}
    </ProfileCard>
  );
}
