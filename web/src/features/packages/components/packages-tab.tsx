import { useId, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Info, PackageOpen, X } from 'lucide-react';
import { STORAGE_PREFIX } from '@maillon/common/constants';
import { PageHeader } from '@/components/layout/dashboard-shell';
import { Button } from '@/components/ui/button';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/feedback';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { toast, toastError } from '@/components/ui/use-toast';
import type { TechnicianTabProps } from '@/types/tabs';
import { useParcels } from '../api/get-parcels';
import { useReceiveParcel } from '../api/receive-parcel';
import { ParcelCard } from './parcel-card';

const NOTICE_KEY = `${STORAGE_PREFIX}packages-notice-dismissed`;
const SEARCH_DELAY_MS = 300;

function readDismissed(): boolean {
  try {
    return localStorage.getItem(NOTICE_KEY) === '1';
  } catch {
    return false;
  }
}

function ResponsibilityNotice() {
  const [dismissed, setDismissed] = useState(readDismissed);
  if (dismissed) return null;
  const dismiss = () => {
    setDismissed(true);
    try {
      localStorage.setItem(NOTICE_KEY, '1');
    } catch {
      // Private mode: hidden for this visit only.
    }
  };
  return (
    <div role="note" className="mb-4 flex items-start gap-3 rounded-lg border border-info/20 bg-info-soft p-3 text-sm">
      <Info className="mt-0.5 size-4 shrink-0 text-info" aria-hidden="true" />
      <p className="min-w-0 flex-1">
        Une fois un colis marqué comme reçu, vous êtes légalement responsable du matériel qu’il contient jusqu’à son utilisation ou son retour.
      </p>
      <Button variant="ghost" size="icon" className="-my-2 -mr-2 shrink-0" aria-label="Fermer l’information" onClick={dismiss}>
        <X aria-hidden="true" />
      </Button>
    </div>
  );
}

function ParcelList({ technicianId, search }: { technicianId: string; search: string }) {
  const parcels = useParcels(technicianId, search);
  const receive = useReceiveParcel(technicianId);
  if (parcels.isPending) {
    return (
      <div className="grid gap-3" aria-busy="true">
        <Skeleton className="h-40" />
        <Skeleton className="h-40" />
      </div>
    );
  }
  if (parcels.isError) return <ErrorState error={parcels.error} />;
  const items = parcels.data.pages.flatMap((page) => page.items);
  if (items.length === 0) {
    return <EmptyState icon={<PackageOpen />} title={search.trim() ? 'Aucun colis trouvé avec ces critères de recherche.' : 'Aucun colis à afficher.'} />;
  }
  const markReceived = (id: string) =>
    receive.mutate(id, {
      onSuccess: () => toast({ title: 'Colis marqué comme reçu', variant: 'success' }),
      onError: (error) => toastError('Erreur', error, 'Impossible de marquer le colis comme reçu'),
    });
  return (
    <>
      <ul className="grid gap-3" aria-label="Colis">
        {items.map((parcel) => (
          <ParcelCard key={parcel.id} parcel={parcel} receiving={receive.isPending && receive.variables === parcel.id} onReceive={() => markReceived(parcel.id)} />
        ))}
      </ul>
      {parcels.hasNextPage ? (
        <div className="mt-4 flex justify-center">
          <Button variant="outline" size="lg" loading={parcels.isFetchingNextPage} onClick={() => void parcels.fetchNextPage()}>
            Afficher plus
          </Button>
        </div>
      ) : null}
    </>
  );
}

/** "Mes réceptions colis" (spec §2): the technician's parcels, searchable, with "Marquer comme reçu". */
export function PackagesTab({ technician }: TechnicianTabProps) {
  const searchId = useId();
  const [searchParams, setSearchParams] = useSearchParams();
  const search = searchParams.get('search') ?? '';
  const [text, setText] = useState(search);
  const [searchSeen, setSearchSeen] = useState(search);
  // "Colis pour cette mission" lands here with ?search=: the field follows the address.
  if (search !== searchSeen) {
    setSearchSeen(search);
    setText(search);
  }
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const onSearch = (value: string) => {
    setText(value);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const next = new URLSearchParams(searchParams);
      if (value.trim()) next.set('search', value);
      else next.delete('search');
      setSearchParams(next, { replace: true });
    }, SEARCH_DELAY_MS);
  };

  return (
    <section>
      <PageHeader title="Mes réceptions colis" description="Le matériel envoyé pour vos missions, en point relais." />
      <ResponsibilityNotice />
      <div className="mb-4">
        <Field id={searchId} label="Rechercher un colis">
          <Input
            type="search"
            value={text}
            onChange={(event) => onSearch(event.target.value)}
            placeholder="Mission, statut, n° de suivi, contenu, date…"
            className="h-11"
          />
        </Field>
      </div>
      <ParcelList technicianId={technician.id} search={search} />
    </section>
  );
}
