import { useForm } from 'react-hook-form';
import { MessageSquareText } from 'lucide-react';
import type { UpdateComments } from '@maillon/common/schemas/profile';
import type { Technician } from '@maillon/common/schemas/technicians';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Textarea } from '@/components/ui/input';
import { toast, toastError } from '@/components/ui/use-toast';
import { useUpdateComments } from '../api/update-comments';
import { commentsResolver } from './form-resolvers';
import { applyFieldErrors, orEmpty, ProfileCard } from './profile-card';

const valuesOf = (t: Technician): UpdateComments => ({ comments: orEmpty(t.comments) });

export function CommentsCard({ technician }: { technician: Technician }) {
  const mutation = useUpdateComments(technician.id);
  const form = useForm<UpdateComments>({ resolver: commentsResolver, defaultValues: valuesOf(technician) });
  const { errors, isSubmitting, isDirty } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const saved = await mutation.mutateAsync(values);
      form.reset(valuesOf(saved));
      toast({ title: 'Informations complémentaires sauvegardées', variant: 'success' });
    } catch (error) {
      applyFieldErrors(form, error);
      toastError('Erreur lors de la mise à jour des commentaires', error);
    }
  });

  return (
    <ProfileCard title="Informations complémentaires" icon={<MessageSquareText aria-hidden="true" />}>
      <form onSubmit={onSubmit} noValidate className="grid gap-4">
        <Field id="profile-comments" label="Commentaire libre" hint="Disponibilités, matériel, certifications…" error={errors.comments?.message}>
          <Textarea rows={4} {...form.register('comments')} />
        </Field>
        <Button type="submit" className="justify-self-start" disabled={!isDirty} loading={isSubmitting}>
          {isSubmitting ? 'Sauvegarde...' : 'Sauvegarder'}
        </Button>
      </form>
    </ProfileCard>
  );
}
