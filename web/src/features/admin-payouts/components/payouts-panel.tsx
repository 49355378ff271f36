import { useState, type ReactNode } from 'react';
import { PageHeader } from '@/components/layout/dashboard-shell';
import { usePayoutSettings } from '../api/get-payout-settings';
import { BatchesSection } from './batches-section';
import { CandidatesSection } from './candidates-section';

/** « Virements SEPA » of Factures & virements: pay the waiting transfers with one bank file (decision 021). */
export function PayoutsPanel({ toolbar }: { toolbar?: ReactNode }) {
  const settings = usePayoutSettings();
  const [expanded, setExpanded] = useState<string | null>(null);
  const configured = settings.data?.debtorConfigured ?? false;
  return (
    <section>
      <PageHeader title="Factures & virements" description="Payez les virements en attente avec un seul fichier SEPA pour la banque. Montants hors taxes." />
      {toolbar}
      {settings.data && !configured ? (
        <p role="alert" className="mb-4 rounded-md border border-warning/30 bg-warning-soft p-3 text-sm text-warning">
          Le compte de l’association n’est pas configuré : renseignez CHARITY_IBAN et CHARITY_BIC (voir le README) pour produire les fichiers de virements.
        </p>
      ) : settings.data ? (
        <p className="mb-4 text-sm text-muted-foreground">
          Compte débité : {settings.data.debtorName} · •••• {settings.data.debtorIbanLast4} · BIC {settings.data.debtorBic}
        </p>
      ) : null}
      <div className="grid gap-8">
        <CandidatesSection configured={configured} onCreated={setExpanded} />
        <BatchesSection expandedId={expanded} onExpand={setExpanded} />
      </div>
    </section>
  );
}
