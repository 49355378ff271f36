import { lazy, Suspense, useEffect } from 'react';
import { TECHNICIAN_STATUS_LABELS } from '@maillon/common/enums';
import { formatDate } from '@maillon/common/format';
import { PageHeader } from '@/components/layout/dashboard-shell';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ErrorState, Skeleton } from '@/components/ui/feedback';
import type { TechnicianTabProps } from '@/types/tabs';
import { useTechnicianProfile } from '../api/get-technician';
import { LegalCard, LogoutCard } from './account-cards';
import { AddressCard } from './address-card';
import { BankingCard } from './banking-card';
import { CommentsCard } from './comments-card';
import { DepartmentsCard } from './departments-card';
import { preloadProfileResolvers } from './form-resolvers';
import { PersonalCard } from './personal-card';
import { profileSectionId } from './profile-card';
import { ProfessionalCard } from './professional-card';
import { RelayPointCard } from './relay-point-card';
import { SecurityCard } from './security-card';

// The two largest cards, below the first screen on a phone, load right after the tab: its first load stays within
// the technician's budget (decision 017).
const CalendarFeedCard = lazy(() => import('./calendar-feed-card').then((m) => ({ default: m.CalendarFeedCard })));
const DocumentsCard = lazy(() => import('./documents-card').then((m) => ({ default: m.DocumentsCard })));

/** The section links of a phone (a long page held in one hand): the card each one scrolls to, by its title. */
const SECTIONS = [
  ['Identité', 'Informations personnelles'],
  ['Mot de passe', 'Sécurité'],
  ['Entreprise', 'Informations professionnelles'],
  ['Adresse', 'Adresse postale'],
  ['Banque', 'Informations bancaires'],
  ['Zones', "Zones d'action"],
  ['Point relais', 'Point relais favori'],
  ['Agenda', 'Mon agenda'],
  ['Documents', 'Documents'],
  ['Commentaires', 'Informations complémentaires'],
] as const;

function goToSection(title: string) {
  const card = document.getElementById(profileSectionId(title));
  card?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  card?.focus({ preventScroll: true });
}

/** "Mon compte" (spec §2): one card per PATCH route of §7, each saved on its own. */
export function ProfileTab({ technician: sessionTechnician }: TechnicianTabProps) {
  const profile = useTechnicianProfile(sessionTechnician);
  const technician = profile.data ?? sessionTechnician;
  // The forms' validation code is not part of the tab's first load: it comes right after the tab has shown.
  useEffect(() => void preloadProfileResolvers(), []);
  const statusVariant = technician.status === 'active' ? 'success' : technician.status === 'pending' ? 'warning' : 'danger';
  return (
    <section className="grid gap-4">
      <PageHeader
        title="Mon compte"
        description={
          <span className="flex flex-wrap items-center gap-2">
            <Badge variant={statusVariant}>{TECHNICIAN_STATUS_LABELS[technician.status]}</Badge>
            <Badge variant={technician.formationCompleted ? 'success' : 'outline'}>{technician.formationStatus}</Badge>
            <span>Inscrit le {formatDate(technician.createdAt)}</span>
          </span>
        }
      />
      <nav aria-label="Rubriques de Mon compte" className="-mx-4 flex gap-2 overflow-x-auto px-4 pb-1 sm:-mx-6 sm:px-6 lg:hidden">
        {SECTIONS.map(([label, title]) => (
          <Button key={title} type="button" variant="outline" size="sm" className="shrink-0 rounded-full" onClick={() => goToSection(title)}>
            {label}
          </Button>
        ))}
      </nav>
      {profile.isError ? <ErrorState error={profile.error} /> : null}
      <div className="grid items-start gap-4 lg:grid-cols-2">
        <div className="grid gap-4">
          <PersonalCard technician={technician} />
          <SecurityCard userId={technician.userId} />
          <ProfessionalCard technician={technician} />
          <AddressCard technician={technician} />
          <BankingCard technician={technician} />
        </div>
        <div className="grid gap-4">
          <DepartmentsCard technician={technician} />
          <RelayPointCard technician={technician} />
          <Suspense fallback={<Skeleton className="h-56" />}>
            <CalendarFeedCard technicianId={technician.id} />
          </Suspense>
          <Suspense fallback={<Skeleton className="h-72" />}>
            <DocumentsCard technician={technician} />
          </Suspense>
          <CommentsCard technician={technician} />
          <LegalCard />
          <LogoutCard />
        </div>
      </div>
    </section>
  );
}
