import { useId, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { PackageOpen } from 'lucide-react';
import { PageHeader } from '@/components/layout/dashboard-shell';
import { Button } from '@/components/ui/button';
import { DismissibleNotice } from '@/components/ui/dismissible-notice';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/feedback';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { toast, toastError } from '@/components/ui/use-toast';
import { useOnlineStatus } from '@/hooks/use-online-status';
import { usePendingChanges } from '@/lib/offline/use-queue';
import type { TechnicianTabProps } from '@/types/tabs';
import { useParcels } from '../api/get-parcels';
import { parcelTarget, useReceiveParcel } from '../api/receive-parcel';
import { ParcelCard } from './parcel-card';

const SEARCH_DELAY_MS = 300;


function ParcelList({ technicianId, search }: { technicianId: string; search: string }) {
  const parcels = useParcels(technicianId, search);
  const receive = useReceiveParcel();
  const online = useOnlineStatus();
  const pending = new Set(usePendingChanges().map((change) => change.target));
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
  const markReceived = (id: string, title: string) => {
    if (!online) toast({ title: 'Réception enregistrée sur le téléphone', description: 'Elle sera envoyée au retour du réseau.' });
    receive.send({ technicianId, shipmentId: id, title }).then(
      () => toast({ title: 'Colis marqué comme reçu', variant: 'success' }),
      (error: unknown) => toastError('Erreur', error, 'Impossible de marquer le colis comme reçu'),
    );
  };
  return (
    <>
      <ul className="grid gap-3" aria-label="Colis">
        {items.map((parcel) => (
          <ParcelCard
            key={parcel.id}
            parcel={parcel}
            pending={pending.has(parcelTarget(parcel.id))}
            onReceive={() => markReceived(parcel.id, parcel.missionTitle || 'Colis sans mission')}
          />
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
      <DismissibleNotice storageKey="packages-notice-dismissed">
        Une fois un colis marqué comme reçu, vous êtes légalement responsable du matériel qu’il contient jusqu’à son utilisation ou son retour.
      </DismissibleNotice>
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
