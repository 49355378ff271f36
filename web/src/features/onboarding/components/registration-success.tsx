import type { ReactNode } from 'react';
import { CheckCircle2 } from 'lucide-react';
import { REGISTRATION_MESSAGES } from '@maillon/common/registration-rules';

/** Shown after a successful registration: the account waits for moderation (spec §2). */
export function RegistrationSuccess({ email, children }: { email: string; children?: ReactNode }) {
  return (
    <div role="status" className="grid justify-items-center gap-3 py-4 text-center">
      <CheckCircle2 className="size-12 text-success" aria-hidden="true" />
      <h2 className="text-xl font-semibold">{REGISTRATION_MESSAGES.success}</h2>
      <p className="text-sm text-muted-foreground">
        Compte créé pour <span className="font-medium text-foreground">{email}</span>.
      </p>
      <p className="max-w-md text-sm">{REGISTRATION_MESSAGES.moderation}</p>
      {children}
    </div>
  );
}
