import { useState } from 'react';
import { ArrowRightLeft, Trash2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { NativeSelect } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';
import { useBulkDeleteMissions } from '../api/bulk-delete-missions';
import { useBatches } from '../api/get-batches';
import { useMoveMissions } from '../api/move-missions';

const UNSORTED = 'unsorted';

interface OrganiseDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  missionIds: string[];
  /** Called after a successful move or delete (the selection is cleared). */
  onDone: () => void;
}

/** Organiser: move the selected missions to a lot or to "À trier (sans lot)", or delete them. */
export function OrganiseDialog({ open, onOpenChange, missionIds, onDone }: OrganiseDialogProps) {
  const [target, setTarget] = useState('');
  const lots = useBatches({ limit: 100, offset: 0 }, { enabled: open });
  const move = useMoveMissions();
  const remove = useBulkDeleteMissions();
  const n = missionIds.length;

  const finish = () => {
    setTarget('');
    onOpenChange(false);
    onDone();
  };

  const onMove = async () => {
    try {
      await move.mutateAsync({ missionIds, batchId: target === UNSORTED ? null : target });
      toast({ title: 'Missions déplacées avec succès', variant: 'success' });
      finish();
    } catch {
      toast({ title: 'Erreur lors du déplacement', description: 'Veuillez réessayer', variant: 'destructive' });
    }
  };

  const onDelete = async () => {
    try {
      await remove.mutateAsync(missionIds);
      toast({ title: 'Missions supprimées avec succès', variant: 'success' });
      finish();
    } catch {
      toast({ title: 'Erreur lors de la suppression', description: 'Veuillez réessayer', variant: 'destructive' });
    }
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Organiser les missions</DialogTitle>
          <DialogDescription>
            {n} mission{n > 1 ? 's' : ''} sélectionnée{n > 1 ? 's' : ''}
          </DialogDescription>
        </DialogHeader>
        <Field id="organise-target" label="Déplacer vers">
          <NativeSelect value={target} onChange={(event) => setTarget(event.target.value)} disabled={lots.isPending}>
            <option value="">{lots.isPending ? 'Chargement des lots…' : 'Choisir une destination…'}</option>
            <option value={UNSORTED}>À trier (sans lot)</option>
            {lots.data?.items.map((lot) => (
              <option key={lot.id} value={lot.id}>
                {lot.title} ({lot.defibrillatorsSum} défibrillateur{lot.defibrillatorsSum > 1 ? 's' : ''})
              </option>
            ))}
          </NativeSelect>
        </Field>
        <DialogFooter className="sm:justify-between">
          <ConfirmDialog
            trigger={
              <Button variant="outline" className="text-destructive">
                <Trash2 aria-hidden="true" /> Supprimer
              </Button>
            }
            title={`Supprimer ${n} mission${n > 1 ? 's' : ''} ?`}
            description="Les missions supprimées ne peuvent pas être récupérées. Les chiffres des lots concernés sont recalculés."
            confirmLabel="Supprimer"
            onConfirm={onDelete}
          />
          <Button onClick={onMove} disabled={!target} loading={move.isPending}>
            <ArrowRightLeft aria-hidden="true" /> Déplacer
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
