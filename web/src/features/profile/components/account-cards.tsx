import { useState } from 'react';
import { LogOut, Scale } from 'lucide-react';
import { TermsDialog } from '@/components/legal/terms-dialog';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useLogout } from '@/features/auth/api/logout';
import { ProfileCard } from './profile-card';

export function LegalCard() {
  const [open, setOpen] = useState(false);
  return (
    <ProfileCard title="Légal" icon={<Scale aria-hidden="true" />} description="Les conditions que vous avez acceptées à votre inscription.">
      <Button type="button" variant="outline" className="justify-self-start" onClick={() => setOpen(true)}>
        Relire les conditions générales
      </Button>
      <TermsDialog open={open} onOpenChange={setOpen} />
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
