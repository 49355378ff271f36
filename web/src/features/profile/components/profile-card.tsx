import type { ReactNode } from 'react';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ApiError } from '@/lib/api-client';
import { cn } from '@/lib/cn';

interface ProfileCardProps {
  title: string;
  icon: ReactNode;
  description?: ReactNode;
  className?: string;
  children: ReactNode;
}

/** The id of the card titled `title` (the tab's section links scroll to it). */
export const profileSectionId = (title: string) => `profile-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;

/** One card of "Mon compte": a titled section with its own save action. */
export function ProfileCard({ title, icon, description, className, children }: ProfileCardProps) {
  const sectionId = profileSectionId(title);
  const headingId = `${sectionId}-title`;
  return (
    <Card id={sectionId} tabIndex={-1} className={cn('flex scroll-mt-20 flex-col outline-none', className)} role="region" aria-labelledby={headingId}>
      <CardHeader>
        <CardTitle id={headingId} className="flex items-center gap-2 [&_svg]:size-5 [&_svg]:text-primary">
          {icon}
          {title}
        </CardTitle>
        {description ? <CardDescription>{description}</CardDescription> : null}
      </CardHeader>
      <CardContent className="grid flex-1 content-start gap-4">{children}</CardContent>
    </Card>
  );
}

/** Puts the server's per-field messages (400 `fields`) under the matching inputs. */
export function applyFieldErrors<T extends FieldValues>(form: UseFormReturn<T>, error: unknown): void {
  if (!(error instanceof ApiError) || !error.fields) return;
  const known = Object.keys(form.getValues());
  for (const [field, message] of Object.entries(error.fields)) {
    if (known.includes(field)) form.setError(field as Path<T>, { message });
  }
}

export const orEmpty = (value: string | null | undefined) => value ?? '';
