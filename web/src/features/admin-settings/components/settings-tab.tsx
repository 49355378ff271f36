import type { ReactNode } from 'react';
import { Cloud, Database, LogOut, Mail, MessageSquare, Radar } from 'lucide-react';
import { EMAIL_STATUS_LABELS, type AdminSettings } from '@maillon/common/schemas/settings';
import { PageHeader } from '@/components/layout/dashboard-shell';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ErrorState, Skeleton } from '@/components/ui/feedback';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { useLogout } from '@/features/auth/api/logout';
import { useAdminSettings } from '../api/get-admin-settings';
import { AuditTrail } from './audit-trail';
import { OutboxEmails } from './outbox-emails';
import { PartsSettingsSection } from './parts-settings';

const dateTime = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'short', timeStyle: 'short', timeZone: 'Europe/Paris' });
const number = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 1 });

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} o`;
  if (bytes < 1024 ** 2) return `${number.format(bytes / 1024)} Ko`;
  if (bytes < 1024 ** 3) return `${number.format(bytes / 1024 ** 2)} Mo`;
  return `${number.format(bytes / 1024 ** 3)} Go`;
}

function IntegrationCard({
  icon,
  title,
  status,
  children,
}: {
  icon: ReactNode;
  title: string;
  status: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card aria-label={title}>
      <CardHeader className="flex-row items-center justify-between gap-3">
        <CardTitle className="flex items-center gap-2 [&_svg]:size-5 [&_svg]:text-primary">
          {icon}
          {title}
        </CardTitle>
        {status}
      </CardHeader>
      <CardContent className="grid gap-2 text-sm">{children}</CardContent>
    </Card>
  );
}

function Line({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[10rem_1fr] gap-2">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

function Integrations({ settings }: { settings: AdminSettings }) {
  const ingestUrl = `${settings.ingestion.publicUrl?.replace(/\/$/, '') ?? window.location.origin}${settings.ingestion.path}`;
  const { stats } = settings.mail;
  return (
    <div className="grid grid-cols-2 gap-4">
      <IntegrationCard
        icon={<MessageSquare aria-hidden="true" />}
        title="Fournisseur SMS"
        status={<Badge variant="secondary">Désactivé</Badge>}
      >
        <p className="text-muted-foreground">
          L'envoi de SMS n'est pas activé : les clients et les techniciens sont prévenus par e-mail.
        </p>
      </IntegrationCard>

      <IntegrationCard
        icon={<Mail aria-hidden="true" />}
        title="Fournisseur e-mail"
        status={
          settings.mail.mode === 'smtp' ? (
            <Badge variant="success">SMTP configuré</Badge>
          ) : (
            <Badge variant="warning">Journalisation uniquement</Badge>
          )
        }
      >
        <p className="text-muted-foreground">
          {settings.mail.mode === 'smtp'
            ? 'Les e-mails partent par le serveur SMTP configuré (SMTP_URL), avec de nouvelles tentatives en cas d’échec.'
            : 'Aucun serveur SMTP n’est configuré (SMTP_URL) : les e-mails sont enregistrés dans la file d’envoi et marqués « Journalisé », sans être envoyés.'}
        </p>
        <dl className="grid gap-1">
          <Line label="Expéditeur">{settings.mail.from}</Line>
        </dl>
        <dl className="grid grid-cols-4 gap-2 rounded-md bg-muted/60 p-3 text-center">
          {(['pending', 'sent', 'logged', 'failed'] as const).map((status) => (
            <div key={status}>
              <dt className="text-xs text-muted-foreground">{EMAIL_STATUS_LABELS[status]}</dt>
              <dd className="font-semibold tabular-nums">{stats[status]}</dd>
            </div>
          ))}
        </dl>
      </IntegrationCard>

      <IntegrationCard
        icon={<Database aria-hidden="true" />}
        title="Stockage des données"
        status={<Badge variant="success">Actif</Badge>}
      >
        <dl className="grid gap-1">
          <Line label="Base de données">
            {settings.storage.database === 'pglite' ? 'PGlite (embarquée, sur disque local)' : 'PostgreSQL'}
          </Line>
          <Line label="Dossier de données">
            <code className="rounded bg-muted px-1 text-xs">{settings.storage.dataDir}</code>
          </Line>
          <Line label="Documents déposés">
            {settings.storage.uploadsFiles} {settings.storage.uploadsFiles > 1 ? 'fichiers' : 'fichier'} ·{' '}
            {formatBytes(settings.storage.uploadsBytes)}
          </Line>
          <Line label="Stockage des fichiers">
            {settings.storage.filesDriver === 's3' ? 'S3 (partagé entre les instances)' : 'disque local'} ·{' '}
            <code className="rounded bg-muted px-1 text-xs">{settings.storage.filesLocation}</code>
          </Line>
        </dl>
      </IntegrationCard>

      <IntegrationCard
        icon={<Radar aria-hidden="true" />}
        title="Outil de suggestion de visites"
        status={<Badge variant="success">Activé</Badge>}
      >
        <dl className="grid gap-1">
          <Line label="Clé d'API">
            {settings.ingestion.configured ? (
              <span className="font-medium text-success">INGEST_API_KEY configurée</span>
            ) : (
              <span className="font-medium text-warning">INGEST_API_KEY non configurée : l'ingestion est refusée</span>
            )}
          </Line>
          <Line label="Adresse d'ingestion">
            <code className="rounded bg-muted px-1 text-xs">POST {ingestUrl}</code>
          </Line>
          <Line label="Dernière réception">
            {settings.ingestion.lastIngestedAt
              ? dateTime.format(new Date(settings.ingestion.lastIngestedAt))
              : 'Aucune visite reçue'}
          </Line>
        </dl>
      </IntegrationCard>
    </div>
  );
}

const CLOUD_USAGE = [
  ['Requêtes incluses', '10k requêtes par mois'],
  ['Période', 'Trimestrielle'],
  ['Début de période', '04/08/2025'],
  ['Hébergement de production', 'Paris et Marseille'],
  ['Redondance', 'Glasgow'],
] as const;

export function SettingsTab() {
  const settings = useAdminSettings();
  const logout = useLogout();
  return (
    <section>
      <PageHeader title="Réglages" description="Intégrations, identifiant et consommation du service." />
      <div className="grid gap-8">
        <section aria-labelledby="settings-apis" className="grid gap-4">
          <h2 id="settings-apis" className="text-lg font-semibold">
            Mes APIs
          </h2>
          {settings.isPending ? (
            <div className="grid grid-cols-2 gap-4" aria-busy="true">
              <Skeleton className="h-44" />
              <Skeleton className="h-44" />
              <Skeleton className="h-44" />
              <Skeleton className="h-44" />
            </div>
          ) : settings.isError ? (
            <ErrorState error={settings.error} />
          ) : (
            <Integrations settings={settings.data} />
          )}
          <Card>
            <CardHeader>
              <CardTitle>Derniers e-mails</CardTitle>
              <CardDescription>
                La file d'envoi : chaque e-mail de la plateforme, avec son statut et ses tentatives.
              </CardDescription>
            </CardHeader>
            <CardContent>
              <OutboxEmails />
            </CardContent>
          </Card>
        </section>

        <PartsSettingsSection />

        <section aria-labelledby="settings-audit" className="grid gap-4">
          <h2 id="settings-audit" className="text-lg font-semibold">
            Journal d'audit
          </h2>
          <Card>
            <CardHeader>
              <CardDescription>
                Chaque action sensible (modération des techniciens, sélection, paiements, suppressions) avec son auteur et l'état
                avant / après. Le journal ne peut pas être modifié.
              </CardDescription>
            </CardHeader>
            <CardContent>
              <AuditTrail />
            </CardContent>
          </Card>
        </section>

        <section aria-labelledby="settings-identity" className="grid gap-4">
          <h2 id="settings-identity" className="text-lg font-semibold">
            Mon identifiant
          </h2>
          <Card>
            <CardContent className="grid gap-4 pt-4 sm:pt-5">
              <Field
                id="settings-email"
                label="Email"
                className="max-w-md"
                hint="L'identifiant ne peut pas être modifié. Le changement de mot de passe doit passer par le fournisseur."
              >
                <Input readOnly value={settings.data?.adminEmail ?? ''} className="bg-muted" />
              </Field>
              <div>
                <Button variant="outline" onClick={() => void logout()}>
                  <LogOut aria-hidden="true" /> Déconnexion
                </Button>
              </div>
            </CardContent>
          </Card>
        </section>

        <section aria-labelledby="settings-cloud" className="grid gap-4">
          <h2 id="settings-cloud" className="flex items-center gap-2 text-lg font-semibold">
            <Cloud className="size-5 text-primary" aria-hidden="true" /> Cloud Usage
          </h2>
          <Card>
            <CardContent className="pt-4 sm:pt-5">
              <dl className="grid grid-cols-5 gap-4">
                {CLOUD_USAGE.map(([label, value]) => (
                  <div key={label} className="grid gap-1">
                    <dt className="text-xs text-muted-foreground">{label}</dt>
                    <dd className="font-semibold">{value}</dd>
                  </div>
                ))}
              </dl>
            </CardContent>
          </Card>
        </section>
      </div>
    </section>
  );
}
