import * as React from 'react';
import { CalendarCheck2, CheckCircle2, Clock, Loader2, MapPin, Stethoscope, UserRound } from 'lucide-react';
import { formatDateTime, formatLongDate } from '@maillon/common/format';
import type { SiteVisit } from '@maillon/common/schemas/appointments';
import { formatVisitSlotLong, formatVisitWindow } from '@maillon/common/visit-slot';
import { buttonVariants } from '@/components/ui/recipes';
import { ApiError, NetworkError } from '@/lib/api-client';
import { confirmSiteVisit } from '../api/confirm-site-visit';
import { forgetSiteVisit, readSiteVisit } from '../api/get-site-visit';

// The proposal form loads when asked for: the page's first load stays small (public page budget, decision 017).
const loadProposeForm = () => import('./propose-form');
const ProposeForm = React.lazy(() => loadProposeForm().then((m) => ({ default: m.ProposeForm })));

/** A notice on the page: French text in a tinted box (no toast region on a public page). */
function Notice({ tone, title, children }: { tone: 'success' | 'info' | 'warning' | 'danger'; title: string; children?: React.ReactNode }) {
  const tones = {
    success: 'border-success/40 bg-success-soft text-success',
    info: 'border-info/30 bg-info-soft text-info',
    warning: 'border-warning/40 bg-warning-soft text-warning',
    danger: 'border-destructive/30 bg-primary-soft text-destructive',
  } as const;
  return (
    <div role={tone === 'danger' ? 'alert' : 'status'} className={`grid gap-1 rounded-md border px-3 py-2.5 text-sm ${tones[tone]}`}>
      <p className="font-semibold">{title}</p>
      {children ? <div className="text-foreground">{children}</div> : null}
    </div>
  );
}

const LINK_STATE_TEXT: Record<Exclude<SiteVisit['state'], 'open' | 'used'>, { title: string; text: string }> = {
  expired: { title: 'Ce lien a expiré', text: 'La date de la visite est passée. Pour toute question, répondez à l’e-mail reçu ou appelez le technicien.' },
  replaced: { title: 'Ce lien a été remplacé', text: 'Un e-mail plus récent vous a été envoyé pour cette visite : utilisez le lien qu’il contient.' },
  cancelled: { title: 'Cette visite a été annulée', text: 'Vous recevrez un nouvel e-mail dès qu’une nouvelle date sera fixée.' },
};

function VisitDetails({ visit }: { visit: NonNullable<SiteVisit['visit']> }) {
  const device = [visit.deviceModel, visit.serialNumber ? `n° de série ${visit.serialNumber}` : null].filter(Boolean).join(' · ');
  return (
    <dl className="grid gap-3 text-sm">
      <div className="flex gap-2.5">
        <dt>
          <CalendarCheck2 className="mt-0.5 size-5 text-primary" aria-label="Date" />
        </dt>
        <dd>
          <span className="block text-base font-semibold first-letter:uppercase">{formatLongDate(`${visit.slot.date}T12:00:00Z`)}</span>
          <span className="text-muted-foreground first-letter:uppercase">{formatVisitWindow(visit.slot)}</span>
        </dd>
      </div>
      <div className="flex gap-2.5">
        <dt>
          <MapPin className="mt-0.5 size-5 text-muted-foreground" aria-label="Site" />
        </dt>
        <dd className="break-words">
          <span className="block font-medium">{visit.siteName}</span>
          {visit.address ? <span className="text-muted-foreground">{visit.address}</span> : null}
        </dd>
      </div>
      {device ? (
        <div className="flex gap-2.5">
          <dt>
            <Stethoscope className="mt-0.5 size-5 text-muted-foreground" aria-label="Défibrillateur" />
          </dt>
          <dd className="break-words">Défibrillateur {device}</dd>
        </div>
      ) : null}
      <div className="flex gap-2.5">
        <dt>
          <UserRound className="mt-0.5 size-5 text-muted-foreground" aria-label="Technicien" />
        </dt>
        <dd>
          Technicien : {visit.technicianFirstName}
          {visit.companyName ? ` (${visit.companyName})` : ''}
        </dd>
      </div>
    </dl>
  );
}

/** What a used link says: what was answered, and when. */
function UsedNotice({ visit, justNow }: { visit: SiteVisit; justNow: boolean }) {
  const when = visit.usedAt ? ` le ${formatDateTime(visit.usedAt)}` : '';
  if (visit.usedAction === 'confirmed') {
    return justNow && visit.visit ? (
      <Notice tone="success" title="Merci, le passage est confirmé">
        Le technicien passera le {formatVisitSlotLong(visit.visit.slot)}. Il a été prévenu de votre confirmation.
      </Notice>
    ) : (
      <Notice tone="info" title="Ce lien a déjà été utilisé">
        Vous avez confirmé ce passage{when}. Le technicien a été prévenu.
      </Notice>
    );
  }
  return justNow && visit.proposal ? (
    <Notice tone="success" title="Merci, votre proposition a été envoyée">
      Vous proposez le {formatVisitSlotLong(visit.proposal.slot)}. Le technicien vous répondra par e-mail.
    </Notice>
  ) : (
    <Notice tone="info" title="Ce lien a déjà été utilisé">
      Vous avez proposé une autre date{when}. Le technicien vous répondra par e-mail.
    </Notice>
  );
}

function SiteVisitContent({ token }: { token: string }) {
  const loaded = React.use(readSiteVisit(token));
  const [answered, setAnswered] = React.useState<SiteVisit | null>(null);
  const [proposing, setProposing] = React.useState(false);
  const [confirming, setConfirming] = React.useState(false);
  const [error, setError] = React.useState<string | null>(null);
  const visit = answered ?? loaded;
  const headingRef = React.useRef<HTMLHeadingElement>(null);

  const confirm = async () => {
    setConfirming(true);
    setError(null);
    try {
      setAnswered(await confirmSiteVisit(token));
      headingRef.current?.focus();
    } catch (caught) {
      setError(caught instanceof ApiError ? (caught.userMessage ?? 'La confirmation n’a pas pu être enregistrée') : 'Erreur de connexion au serveur : réessayez.');
    } finally {
      setConfirming(false);
    }
  };

  return (
    <>
      <div className="flex flex-col gap-1.5 p-4 sm:p-5">
        <h1 ref={headingRef} tabIndex={-1} className="text-xl font-semibold leading-tight outline-none">
          Visite de votre défibrillateur
        </h1>
        {visit.state === 'open' ? (
          <p className="text-sm text-muted-foreground">Merci de confirmer le passage de notre technicien, ou de proposer une autre date si le site est fermé ce jour-là.</p>
        ) : null}
      </div>
      <div className="grid gap-4 p-4 pt-0 sm:p-5 sm:pt-0">
        {visit.state === 'used' ? <UsedNotice visit={visit} justNow={answered !== null} /> : null}
        {visit.state !== 'open' && visit.state !== 'used' ? (
          <Notice tone={visit.state === 'cancelled' ? 'warning' : 'info'} title={LINK_STATE_TEXT[visit.state].title}>
            {LINK_STATE_TEXT[visit.state].text}
          </Notice>
        ) : null}
        {visit.visit ? <VisitDetails visit={visit.visit} /> : null}
        {visit.state === 'open' && !visit.canConfirm ? (
          <Notice tone="warning" title="Le créneau de cette visite est passé">
            Elle ne peut plus être confirmée ; vous pouvez proposer une autre date.
          </Notice>
        ) : null}
        {error ? <Notice tone="danger" title={error} /> : null}
        {visit.state === 'open' && !proposing ? (
          <div className="grid gap-2">
            {visit.canConfirm ? (
              <button type="button" disabled={confirming} onClick={() => void confirm()} className={buttonVariants({ size: 'lg' })}>
                {confirming ? <Loader2 className="animate-spin" aria-hidden="true" /> : <CheckCircle2 aria-hidden="true" />}
                {confirming ? 'Confirmation...' : 'Confirmer'}
              </button>
            ) : null}
            {visit.canPropose ? (
              <button
                type="button"
                onClick={() => setProposing(true)}
                onPointerEnter={() => void loadProposeForm().catch(() => undefined)}
                onFocus={() => void loadProposeForm().catch(() => undefined)}
                className={buttonVariants({ variant: 'outline', size: 'lg' })}
              >
                <Clock aria-hidden="true" />
                Proposer une autre date
              </button>
            ) : null}
          </div>
        ) : null}
        {visit.state === 'open' && proposing ? (
          <React.Suspense fallback={<Loader2 className="mx-auto size-5 animate-spin text-muted-foreground" aria-label="Chargement..." />}>
            <ProposeForm
              token={token}
              onCancel={() => setProposing(false)}
              onDone={(result) => {
                setAnswered(result);
                setProposing(false);
                headingRef.current?.focus();
              }}
            />
          </React.Suspense>
        ) : null}
      </div>
    </>
  );
}

interface BoundaryState {
  error: unknown;
}

/** A failed read: an unknown link (404, the same for any wrong token) or a network failure with « Réessayer ». */
class SiteVisitBoundary extends React.Component<{ token: string; onRetry: () => void; children: React.ReactNode }, BoundaryState> {
  override state: BoundaryState = { error: undefined };

  static getDerivedStateFromError(error: unknown): BoundaryState {
    return { error };
  }

  override render() {
    const { error } = this.state;
    if (error === undefined) return this.props.children;
    const notFound = error instanceof ApiError && error.status === 404;
    const limited = error instanceof ApiError && error.status === 429;
    return (
      <div className="grid gap-4 p-4 sm:p-5">
        <h1 className="text-xl font-semibold leading-tight">{notFound ? 'Lien introuvable' : 'Visite de votre défibrillateur'}</h1>
        {notFound ? (
          <Notice tone="info" title="Ce lien n’existe pas ou n’est plus valable">
            Vérifiez que l’adresse a été copiée en entier, ou utilisez le lien du dernier e-mail reçu pour cette visite.
          </Notice>
        ) : (
          <>
            <Notice tone="danger" title={limited ? 'Trop de tentatives' : 'La visite n’a pas pu être chargée'}>
              {limited ? 'Réessayez dans quelques minutes.' : error instanceof NetworkError ? 'Vérifiez votre connexion puis réessayez.' : 'Réessayez dans un instant.'}
            </Notice>
            <button
              type="button"
              onClick={() => {
                this.setState({ error: undefined });
                this.props.onRetry();
              }}
              className={buttonVariants({ variant: 'outline', size: 'lg' })}
            >
              Réessayer
            </button>
          </>
        )}
      </div>
    );
  }
}

/** The site contact's page behind the e-mailed link (/rdv/:token): no account, the token is the only credential. */
export function SiteVisitPage({ token }: { token: string }) {
  const [attempt, setAttempt] = React.useState(0);
  return (
    <SiteVisitBoundary
      key={attempt}
      token={token}
      onRetry={() => {
        forgetSiteVisit(token);
        setAttempt((n) => n + 1);
      }}
    >
      <React.Suspense
        fallback={
          <div role="status" className="flex items-center justify-center gap-2 py-10 text-muted-foreground">
            <Loader2 className="size-5 animate-spin" aria-hidden="true" />
            <span className="text-sm">Chargement...</span>
          </div>
        }
      >
        <SiteVisitContent token={token} />
      </React.Suspense>
    </SiteVisitBoundary>
  );
}
