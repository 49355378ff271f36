import * as React from 'react';
import { Loader2 } from 'lucide-react';
import { PASSWORD_MAX } from '@maillon/common/constants';
import { EMAIL_MAX, EMAIL_PATTERN, LOGIN_MESSAGES } from '@maillon/common/login-rules';
import type { LoginRequest, SessionResponse } from '@maillon/common/schemas/auth';
import { buttonVariants, inputClass, labelClass } from '@/components/ui/recipes';
import { toast } from '@/components/ui/use-toast';
import { ApiError, NetworkError } from '@/lib/api-client';
import { login } from '../api/login';

type LoginErrors = Partial<Record<keyof LoginRequest, string>>;

// zod's default message for the length limits, as the form showed when it validated with the schema.
const tooLong = (max: number) => `Too big: expected string to have <=${max} characters`;

/** loginRequestSchema's checks in order, first failure per field, without loading zod on the public pages. */
function validateLogin({ email, password }: LoginRequest): LoginErrors {
  const errors: LoginErrors = {};
  const trimmed = email.trim();
  if (trimmed.length < 1) errors.email = LOGIN_MESSAGES.emailRequired;
  else if (!EMAIL_PATTERN.test(trimmed)) errors.email = LOGIN_MESSAGES.emailInvalid;
  else if (trimmed.length > EMAIL_MAX) errors.email = tooLong(EMAIL_MAX);
  if (password.length < 1) errors.password = LOGIN_MESSAGES.passwordRequired;
  else if (password.length > PASSWORD_MAX) errors.password = tooLong(PASSWORD_MAX);
  return errors;
}

/** Field's markup (label, control, inline error wired for screen readers) on native elements. */
function LoginField({
  id,
  label,
  error,
  children,
}: {
  id: string;
  label: string;
  error: string | undefined;
  children: React.ReactElement<React.ComponentProps<'input'>>;
}) {
  const errorId = `${id}-error`;
  return (
    <div className="grid gap-1.5">
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      {React.cloneElement(children, {
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': error ? errorId : undefined,
      })}
      {error ? (
        <p id={errorId} role="alert" className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}

interface LoginFormProps {
  /** Read when the form mounts (the technician login remounts it with a new key after a registration). */
  defaultEmail?: string | undefined;
  onSuccess: (session: SessionResponse) => void;
  idPrefix: string;
}

/**
 * Shared login form: inline field errors, toasts of spec §8, "Connexion..." while submitting. Validated on submit,
 * then again as each field changes; the first invalid field takes the focus. Native elements styled with the UI
 * recipes: the public pages load neither react-hook-form, zod, Radix nor tailwind-merge (decision 013).
 */
export function LoginForm({ defaultEmail, onSuccess, idPrefix }: LoginFormProps) {
  const [errors, setErrors] = React.useState<LoginErrors>({});
  const [isSubmitted, setIsSubmitted] = React.useState(false);
  const [isSubmitting, setIsSubmitting] = React.useState(false);
  // Uncontrolled inputs, as with react-hook-form: the password never lands in a DOM attribute.
  const emailRef = React.useRef<HTMLInputElement>(null);
  const passwordRef = React.useRef<HTMLInputElement>(null);
  const readValues = (): LoginRequest => ({ email: emailRef.current?.value ?? '', password: passwordRef.current?.value ?? '' });

  const onChange = (name: keyof LoginRequest) => () => {
    if (isSubmitted) setErrors((current) => ({ ...current, [name]: validateLogin(readValues())[name] }));
  };

  const onSubmit = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setIsSubmitted(true);
    const values = readValues();
    const found = validateLogin(values);
    setErrors(found);
    if (found.email || found.password) {
      (found.email ? emailRef : passwordRef).current?.focus();
      return;
    }
    setIsSubmitting(true);
    try {
      const session = await login({ email: values.email.trim(), password: values.password });
      onSuccess(session);
    } catch (error) {
      if (error instanceof NetworkError) {
        toast({ title: 'Erreur de connexion', description: 'Erreur de connexion au serveur', variant: 'destructive' });
      } else {
        const message = error instanceof ApiError ? error.userMessage : undefined;
        toast({ title: 'Erreur de connexion', description: message || 'Identifiants invalides', variant: 'destructive' });
      }
    } finally {
      setIsSubmitting(false);
    }
  };

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      <LoginField id={`${idPrefix}-email`} label="Email" error={errors.email}>
        <input
          ref={emailRef}
          name="email"
          type="email"
          autoComplete="email"
          inputMode="email"
          defaultValue={defaultEmail ?? ''}
          onChange={onChange('email')}
          className={inputClass}
        />
      </LoginField>
      <LoginField id={`${idPrefix}-password`} label="Mot de passe" error={errors.password}>
        <input
          ref={passwordRef}
          name="password"
          type="password"
          autoComplete="current-password"
          defaultValue=""
          onChange={onChange('password')}
          className={inputClass}
        />
      </LoginField>
      <button type="submit" className={buttonVariants({ size: 'lg' })} disabled={isSubmitting}>
        {isSubmitting ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
        {isSubmitting ? 'Connexion...' : 'Se connecter'}
      </button>
    </form>
  );
}
