import { useEffect, useId, useRef, useState } from 'react';
import { Camera, ImagePlus, RotateCcw, Trash2 } from 'lucide-react';
import { VISIT_PHOTOS_MAX } from '@maillon/common/device-rules';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { toastError } from '@/components/ui/use-toast';
import { useDeleteVisitPhoto } from '../api/delete-visit-photo';
import { visitReportPath } from '../api/get-visit-report';
import { useUploadVisitPhoto } from '../api/upload-visit-photo';
import { newId } from '../lib/new-id';
import { resizeImage } from '../lib/resize-image';

interface PendingPhoto {
  id: string;
  status: 'sending' | 'failed';
  previewUrl: string;
  blob: Blob;
}

/**
 * Up to 6 photos: each is shrunk on the phone, then sent on its own under an id made here (a retry or a replay sends
 * the same photo again, never a second copy). Sent photos are shown from the server; the form keeps their order.
 */
export function PhotosField({
  missionId,
  reportId,
  photoIds,
  onChange,
  onBusyChange,
  disabled,
}: {
  missionId: string;
  reportId: string;
  photoIds: string[];
  onChange: (update: (ids: string[]) => string[]) => void;
  onBusyChange: (busy: boolean) => void;
  disabled: boolean;
}) {
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [pending, setPending] = useState<PendingPhoto[]>([]);
  const upload = useUploadVisitPhoto();
  const remove = useDeleteVisitPhoto();
  const room = VISIT_PHOTOS_MAX - photoIds.length - pending.length;

  useEffect(() => {
    onBusyChange(pending.some((p) => p.status === 'sending'));
  }, [pending, onBusyChange]);
  useEffect(() => () => pending.forEach((p) => URL.revokeObjectURL(p.previewUrl)), []); // eslint-disable-line react-hooks/exhaustive-deps

  const send = async (photo: PendingPhoto) => {
    setPending((list) => list.map((p) => (p.id === photo.id ? { ...p, status: 'sending' } : p)));
    try {
      await upload.mutateAsync({ missionId, reportId, photoId: photo.id, file: photo.blob });
      setPending((list) => list.filter((p) => p.id !== photo.id));
      URL.revokeObjectURL(photo.previewUrl);
      onChange((ids) => (ids.includes(photo.id) ? ids : [...ids, photo.id]));
    } catch (error) {
      setPending((list) => list.map((p) => (p.id === photo.id ? { ...p, status: 'failed' } : p)));
      toastError('Photo non envoyée', error);
    }
  };

  const pick = async (files: FileList | null) => {
    if (!files || files.length === 0) return;
    const chosen = Array.from(files).slice(0, Math.max(0, room));
    if (files.length > chosen.length) toastError('Trop de photos', new Error(`${VISIT_PHOTOS_MAX} photos au maximum par rapport`));
    for (const file of chosen) {
      const blob = await resizeImage(file);
      const photo: PendingPhoto = { id: newId(), status: 'sending', previewUrl: URL.createObjectURL(blob), blob };
      setPending((list) => [...list, photo]);
      void send(photo);
    }
    if (inputRef.current) inputRef.current.value = '';
  };

  const drop = (photoId: string) =>
    remove.mutateAsync({ missionId, photoId }).then(
      () => onChange((ids) => ids.filter((id) => id !== photoId)),
      (error: unknown) => toastError('Photo non retirée', error),
    );

  return (
    <div className="grid gap-3">
      <ul className="grid grid-cols-2 gap-2" aria-label="Photos du rapport">
        {photoIds.map((id, index) => (
          <li key={id} className="relative overflow-hidden rounded-md border bg-muted">
            <img src={visitReportPath(missionId, `/photos/${id}`)} alt={`Photo ${index + 1}`} className="aspect-[4/3] w-full object-cover" loading="lazy" />
            {!disabled ? (
              <ConfirmDialog
                trigger={
                  <Button variant="secondary" size="icon" className="absolute right-1.5 top-1.5 size-11 bg-card/90" aria-label={`Retirer la photo ${index + 1}`}>
                    <Trash2 aria-hidden="true" />
                  </Button>
                }
                title="Retirer cette photo ?"
                description="Elle ne figurera plus dans le rapport."
                confirmLabel="Retirer"
                onConfirm={() => drop(id)}
              />
            ) : null}
          </li>
        ))}
        {pending.map((photo) => (
          <li key={photo.id} className="relative overflow-hidden rounded-md border bg-muted">
            <img src={photo.previewUrl} alt="Photo en cours d’envoi" className="aspect-[4/3] w-full object-cover opacity-70" />
            <span className="absolute inset-x-0 bottom-0 bg-card/90 px-2 py-1 text-xs font-medium" role="status">
              {photo.status === 'sending' ? 'Envoi…' : 'Échec de l’envoi'}
            </span>
            {photo.status === 'failed' ? (
              <div className="absolute right-1.5 top-1.5 flex gap-1.5">
                <Button variant="secondary" size="icon" className="size-11 bg-card/90" aria-label="Réessayer l’envoi" onClick={() => void send(photo)}>
                  <RotateCcw aria-hidden="true" />
                </Button>
                <Button
                  variant="secondary"
                  size="icon"
                  className="size-11 bg-card/90"
                  aria-label="Abandonner cette photo"
                  onClick={() => {
                    URL.revokeObjectURL(photo.previewUrl);
                    setPending((list) => list.filter((p) => p.id !== photo.id));
                  }}
                >
                  <Trash2 aria-hidden="true" />
                </Button>
              </div>
            ) : null}
          </li>
        ))}
      </ul>
      {photoIds.length + pending.length === 0 ? <p className="text-sm text-muted-foreground">Aucune photo pour l’instant (facultatif, 6 au maximum).</p> : null}
      {!disabled ? (
        <>
          <input
            ref={inputRef}
            id={inputId}
            type="file"
            accept="image/jpeg,image/png"
            multiple
            className="sr-only"
            aria-label="Ajouter des photos"
            disabled={room <= 0}
            onChange={(event) => void pick(event.target.files)}
          />
          <Button type="button" variant="outline" size="lg" className="w-full" disabled={room <= 0} onClick={() => inputRef.current?.click()}>
            {room > 0 ? <ImagePlus aria-hidden="true" /> : <Camera aria-hidden="true" />}
            {room > 0 ? `Ajouter des photos (${photoIds.length + pending.length}/${VISIT_PHOTOS_MAX})` : `${VISIT_PHOTOS_MAX} photos : maximum atteint`}
          </Button>
        </>
      ) : null}
    </div>
  );
}
