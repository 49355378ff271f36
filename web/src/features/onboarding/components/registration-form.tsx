import * as React from 'react';
import { Controller, useForm, type Path } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { FileText } from 'lucide-react';
import { COUNTRIES, REGISTRATION_MESSAGES, registrationSchema } from '@maillon/common/schemas/registration';
import { DepartmentPicker } from '@/components/forms/department-picker';
import { TermsDialog, TERMS_TITLE } from '@/components/legal/terms-dialog';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Field } from '@/components/ui/field';
import { Input, NativeSelect, Textarea } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { NEEDS_NETWORK, useOnlineStatus } from '@/hooks/use-online-status';
import { ApiError } from '@/lib/api-client';
import { registerTechnician } from '../api/register-technician';
import { FileField } from './file-field';

const registrationFormSchema = registrationSchema.extend({
  termsAccepted: z.boolean().refine((accepted) => accepted, REGISTRATION_MESSAGES.terms),
});
type RegistrationFormInput = z.input<typeof registrationFormSchema>;
type RegistrationFormOutput = z.output<typeof registrationFormSchema>;

const defaultValues: RegistrationFormInput = {
  firstName: '',
  lastName: '',
  email: '',
  password: '',
  phone: '',
  companyName: '',
  siret: '',
  iban: '',
  preferredRelayPoint: '',
  comments: '',
  address: '',
  city: '',
  postalCode: '',
  country: 'France',
  departments: [],
  termsAccepted: false,
};

const IDENTITY_EXTENSIONS = ['png', 'jpg', 'jpeg', 'pdf'] as const;
const CV_EXTENSIONS = ['pdf', 'docx'] as const;
const IDENTITY_TYPE_MESSAGE = "Format de fichier non accepté : la pièce d'identité doit être un PNG, un JPG ou un PDF";
const CV_TYPE_MESSAGE = 'Format de fichier non accepté : le CV doit être un PDF ou un DOCX';

type FileKey = 'identityDocument' | 'cv';
interface FileState {
  file: File | null;
  error: string | null;
}

function Fieldset({ legend, children }: { legend: string; children: React.ReactNode }) {
  return (
    <fieldset className="grid gap-4 rounded-lg border bg-card p-4">
      <legend className="px-1 text-sm font-semibold">{legend}</legend>
      {children}
    </fieldset>
  );
}

interface RegistrationFormProps {
  /** Distinguishes the popup's ids from the page's. */
  idPrefix: string;
  onSuccess: (email: string) => void;
}

/** The registration form of spec §2, used by the login page's popup and by /technician/register. */
export function RegistrationForm({ idPrefix, onSuccess }: RegistrationFormProps) {
  const online = useOnlineStatus();
  const id = (name: string) => `${idPrefix}-${name}`;
  const form = useForm<RegistrationFormInput, unknown, RegistrationFormOutput>({
    resolver: zodResolver(registrationFormSchema),
    defaultValues,
  });
  const { errors, isSubmitting } = form.formState;
  const [termsOpen, setTermsOpen] = React.useState(false);
  const [termsRead, setTermsRead] = React.useState(false);
  const [files, setFiles] = React.useState<Record<FileKey, FileState>>({
    identityDocument: { file: null, error: null },
    cv: { file: null, error: null },
  });
  const setFile = (key: FileKey) => (file: File | null, error: string | null) => setFiles((current) => ({ ...current, [key]: { file, error } }));
  const markTermsRead = React.useCallback(() => setTermsRead(true), []);

  const onSubmit = form.handleSubmit(async (values) => {
    if (files.identityDocument.error || files.cv.error) return;
    try {
      await registerTechnician({
        values: { ...values, termsAccepted: true },
        identityDocument: files.identityDocument.file,
        cv: files.cv.file,
      });
      toast({ title: REGISTRATION_MESSAGES.success, description: 'Votre inscription est en cours de modération.', variant: 'success' });
      onSuccess(values.email);
    } catch (error) {
      const apiError = error instanceof ApiError ? error : null;
      for (const [field, message] of Object.entries(apiError?.fields ?? {})) {
        if (field === 'identityDocument' || field === 'cv') setFiles((current) => ({ ...current, [field]: { ...current[field], error: message } }));
        else if (field in defaultValues) form.setError(field as Path<RegistrationFormInput>, { message }, { shouldFocus: true });
      }
      toast({
        title: "Erreur d'inscription",
        description: apiError?.userMessage ?? REGISTRATION_MESSAGES.failure,
        variant: 'destructive',
      });
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-5">
      <Fieldset legend="Vos informations">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id={id('firstName')} label="Prénom" required error={errors.firstName?.message}>
            <Input autoComplete="given-name" {...form.register('firstName')} />
          </Field>
          <Field id={id('lastName')} label="Nom" required error={errors.lastName?.message}>
            <Input autoComplete="family-name" {...form.register('lastName')} />
          </Field>
        </div>
        <Field id={id('email')} label="Email" required error={errors.email?.message}>
          <Input type="email" inputMode="email" autoComplete="email" {...form.register('email')} />
        </Field>
        <Field id={id('password')} label="Mot de passe" required hint="6 caractères minimum" error={errors.password?.message}>
          <Input type="password" autoComplete="new-password" {...form.register('password')} />
        </Field>
        <Field id={id('phone')} label="Téléphone" error={errors.phone?.message}>
          <Input type="tel" inputMode="tel" autoComplete="tel" {...form.register('phone')} />
        </Field>
      </Fieldset>

      <Fieldset legend="Votre activité">
        <Field id={id('companyName')} label="Nom de l'entreprise" error={errors.companyName?.message}>
          <Input autoComplete="organization" {...form.register('companyName')} />
        </Field>
        <Field id={id('siret')} label="SIRET" hint="14 chiffres" error={errors.siret?.message}>
          <Input inputMode="numeric" autoComplete="off" {...form.register('siret')} />
        </Field>
        <Field id={id('iban')} label="IBAN" hint="Pour le versement de vos rémunérations" error={errors.iban?.message}>
          <Input autoComplete="off" spellCheck={false} placeholder="FR76 …" {...form.register('iban')} />
        </Field>
      </Fieldset>

      <Fieldset legend="Votre adresse">
        <Field id={id('address')} label="Adresse" error={errors.address?.message}>
          <Input autoComplete="street-address" {...form.register('address')} />
        </Field>
        <div className="grid gap-4 sm:grid-cols-[2fr_1fr]">
          <Field id={id('city')} label="Ville" error={errors.city?.message}>
            <Input autoComplete="address-level2" {...form.register('city')} />
          </Field>
          <Field id={id('postalCode')} label="Code postal" error={errors.postalCode?.message}>
            <Input inputMode="numeric" autoComplete="postal-code" {...form.register('postalCode')} />
          </Field>
        </div>
        <Field id={id('country')} label="Pays" error={errors.country?.message}>
          <NativeSelect {...form.register('country')}>
            {COUNTRIES.map((country) => (
              <option key={country} value={country}>
                {country}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field id={id('preferredRelayPoint')} label="Point relais préféré" hint="Pour recevoir le matériel des missions" error={errors.preferredRelayPoint?.message}>
          <Input {...form.register('preferredRelayPoint')} />
        </Field>
      </Fieldset>

      <Fieldset legend="Zones d'intervention">
        <Controller
          control={form.control}
          name="departments"
          render={({ field }) => (
            <DepartmentPicker
              id={id('departments')}
              label="Départements d'intervention (1 à 3)"
              required
              value={field.value}
              onChange={field.onChange}
              error={errors.departments?.message ?? errors.departments?.root?.message}
            />
          )}
        />
      </Fieldset>

      <Fieldset legend="Documents (facultatifs)">
        <FileField
          id={id('identityDocument')}
          label="Pièce d'identité"
          hint="PNG, JPG ou PDF, 10 Mo maximum"
          extensions={IDENTITY_EXTENSIONS}
          typeMessage={IDENTITY_TYPE_MESSAGE}
          file={files.identityDocument.file}
          error={files.identityDocument.error}
          onChange={setFile('identityDocument')}
        />
        <FileField
          id={id('cv')}
          label="CV"
          hint="PDF ou DOCX, 10 Mo maximum"
          extensions={CV_EXTENSIONS}
          typeMessage={CV_TYPE_MESSAGE}
          file={files.cv.file}
          error={files.cv.error}
          onChange={setFile('cv')}
        />
        <Field id={id('comments')} label="Commentaires" error={errors.comments?.message}>
          <Textarea rows={3} {...form.register('comments')} />
        </Field>
      </Fieldset>

      <Fieldset legend="Conditions et formation">
        <Button type="button" variant="outline" className="justify-start" onClick={() => setTermsOpen(true)}>
          <FileText aria-hidden="true" /> Lire les conditions générales
        </Button>
        <TermsDialog open={termsOpen} onOpenChange={setTermsOpen} onReadToEnd={markTermsRead} alreadyRead={termsRead} />
        <div className="grid gap-1.5">
          <div className="flex items-start gap-3">
            <Controller
              control={form.control}
              name="termsAccepted"
              render={({ field }) => (
                <Checkbox
                  id={id('termsAccepted')}
                  className="mt-0.5"
                  checked={field.value}
                  disabled={!termsRead}
                  onCheckedChange={(checked) => field.onChange(checked === true)}
                  aria-invalid={errors.termsAccepted ? true : undefined}
                  aria-describedby={errors.termsAccepted ? id('termsAccepted-error') : undefined}
                />
              )}
            />
            <Label htmlFor={id('termsAccepted')} className="leading-snug">
              J'ai lu les {TERMS_TITLE} et je m'engage à suivre la formation obligatoire
            </Label>
          </div>
          {errors.termsAccepted ? (
            <p id={id('termsAccepted-error')} role="alert" className="text-sm text-destructive">
              {errors.termsAccepted.message}
            </p>
          ) : null}
        </div>
      </Fieldset>

      <div className="grid gap-2">
        <Button type="submit" size="lg" disabled={!termsRead || !online} loading={isSubmitting}>
          {isSubmitting ? 'Inscription en cours...' : "S'enregistrer"}
        </Button>
        {!online ? <p className="text-center text-sm text-muted-foreground">{NEEDS_NETWORK}</p> : null}
        {!termsRead ? (
          <p className="text-center text-sm text-muted-foreground">Lisez les conditions générales jusqu'en bas pour pouvoir vous inscrire.</p>
        ) : null}
      </div>
    </form>
  );
}
