import { useState } from 'react';
import { DEVICE_STATES, type DeviceState } from '@maillon/common/enums';
import { deviceSerialKey, SERIAL_INVALID } from '@maillon/common/device-rules';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Input, NativeSelect } from '@/components/ui/input';
import { toast, toastError } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api-client';
import { useCreateDevice } from '../api/create-device';

/** « Ajouter un défibrillateur »: the serial number and what is known; the rest is filled on the device's page. */
export function CreateDeviceDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (deviceId: string) => void }) {
  const [values, setValues] = useState({ serialNumber: '', manufacturer: '', model: '', siteName: '', city: '', functionalState: 'Inconnu' as DeviceState });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const create = useCreateDevice();
  const set = (field: keyof typeof values) => (event: { target: { value: string } }) => setValues((current) => ({ ...current, [field]: event.target.value }));

  const submit = async () => {
    if (!deviceSerialKey(values.serialNumber)) {
      setErrors({ serialNumber: values.serialNumber.trim() ? SERIAL_INVALID : 'Le numéro de série est requis' });
      return;
    }
    try {
      const device = await create.mutateAsync({
        serialNumber: values.serialNumber,
        manufacturer: values.manufacturer || null,
        model: values.model || null,
        siteName: values.siteName || null,
        city: values.city || null,
        functionalState: values.functionalState,
      });
      toast({ title: 'Défibrillateur ajouté', description: `${device.serialNumber} est dans le parc.`, variant: 'success' });
      onCreated(device.id);
    } catch (error) {
      if (error instanceof ApiError && error.fields) setErrors(error.fields);
      toastError('Défibrillateur non ajouté', error);
    }
  };

  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Ajouter un défibrillateur</DialogTitle>
          <DialogDescription>Le numéro de série identifie l’appareil : espaces, tirets et casse sont ignorés.</DialogDescription>
        </DialogHeader>
        <form
          className="grid gap-3"
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <Field id="new-device-serial" label="Numéro de série" required error={errors.serialNumber}>
            <Input value={values.serialNumber} onChange={set('serialNumber')} maxLength={100} autoFocus />
          </Field>
          <div className="grid grid-cols-2 gap-3">
            <Field id="new-device-manufacturer" label="Fabricant" error={errors.manufacturer}>
              <Input value={values.manufacturer} onChange={set('manufacturer')} maxLength={120} />
            </Field>
            <Field id="new-device-model" label="Modèle" error={errors.model}>
              <Input value={values.model} onChange={set('model')} maxLength={120} />
            </Field>
            <Field id="new-device-site" label="Nom du site" error={errors.siteName}>
              <Input value={values.siteName} onChange={set('siteName')} maxLength={200} />
            </Field>
            <Field id="new-device-city" label="Commune" error={errors.city}>
              <Input value={values.city} onChange={set('city')} maxLength={120} />
            </Field>
          </div>
          <Field id="new-device-state" label="État de fonctionnement">
            <NativeSelect value={values.functionalState} onChange={set('functionalState')}>
              {DEVICE_STATES.map((state) => (
                <option key={state} value={state}>
                  {state}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Annuler
            </Button>
            <Button type="submit" loading={create.isPending}>
              Ajouter
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
