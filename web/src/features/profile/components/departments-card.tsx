import { useState } from 'react';
import { Map as MapIcon } from 'lucide-react';
import { PROFILE_MESSAGES } from '@maillon/common/profile-rules';
import type { Technician } from '@maillon/common/schemas/technicians';
import { DepartmentPicker } from '@/components/forms/department-picker';
import { Button } from '@/components/ui/button';
import { toast, toastError } from '@/components/ui/use-toast';
import { useUpdateDepartments } from '../api/update-departments';
import { ProfileCard } from './profile-card';

const sameList = (a: string[], b: string[]) => a.length === b.length && a.every((code, i) => code === b[i]);

export function DepartmentsCard({ technician }: { technician: Technician }) {
  const mutation = useUpdateDepartments(technician.id);
  const [departments, setDepartments] = useState<string[]>(technician.departments);
  const [saved, setSaved] = useState<string[]>(technician.departments);

  const save = async () => {
    try {
      const result = await mutation.mutateAsync({ departments });
      setSaved(result.departments);
      setDepartments(result.departments);
      toast({ title: "Zones d'action mises à jour", variant: 'success' });
    } catch (error) {
      toastError("Erreur lors de la mise à jour des zones d'action", error);
    }
  };

  return (
    <ProfileCard title="Zones d'action" icon={<MapIcon aria-hidden="true" />} description="Les départements où vous intervenez (1 à 3).">
      <DepartmentPicker
        id="profile-departments"
        label="Départements d'intervention"
        value={departments}
        onChange={setDepartments}
        error={departments.length === 0 ? PROFILE_MESSAGES.departments : undefined}
      />
      <Button
        type="button"
        className="justify-self-start"
        disabled={departments.length === 0 || sameList(departments, saved)}
        loading={mutation.isPending}
        onClick={save}
      >
        {mutation.isPending ? 'Enregistrement...' : 'Enregistrer'}
      </Button>
    </ProfileCard>
  );
}
