import { lazy, Suspense, useState } from 'react';
import { LogOut, Scale } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useLogout } from '@/features/auth/api/logout';
import { useOpenedOnce } from '@/hooks/use-opened-once';
import { ProfileCard } from './profile-card';

// The terms (their text and the Radix dialog) load when the technician asks to read them (decision 017).
const TermsDialog = lazy(() => import('@/components/legal/terms-dialog').then((m) => ({ default: m.TermsDialog })));

export function LegalCard() {
  const [open, setOpen] = useState(false);
  const mounted = useOpenedOnce(open);
  return (
    <ProfileCard title="Légal" icon={<Scale aria-hidden="true" />} description="Les conditions que vous avez acceptées à votre inscription.">
      <Button type="button" variant="outline" className="justify-self-start" onClick={() => setOpen(true)}>
        Relire les conditions générales
      </Button>
      {mounted ? (
        <Suspense fallback={null}>
          <TermsDialog open={open} onOpenChange={setOpen} />
        </Suspense>
      ) : null}
    </ProfileCard>
  );
}

export function LogoutCard() {
  const logout = useLogout();
  return (
    <ProfileCard title="Déconnexion" icon={<LogOut aria-hidden="true" />}>
      <ConfirmDialog
        trigger={
          <Button type="button" variant="outline" className="justify-self-start">
            <LogOut aria-hidden="true" /> Se déconnecter
          </Button>
        }
        title="Êtes-vous sûr de vouloir vous déconnecter ?"
        confirmLabel="Se déconnecter"
        onConfirm={logout}
      />
    </ProfileCard>
  );
}
