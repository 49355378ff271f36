import { useEffect, useId, useRef, useState } from 'react';
import { Camera, ImagePlus, Trash2 } from 'lucide-react';
import { VISIT_PHOTOS_MAX } from '@maillon/common/device-rules';
import { PendingMark } from '@/components/offline/pending-mark';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { toastError } from '@/components/ui/use-toast';
import { cn } from '@/lib/cn';
import { useDeleteVisitPhoto } from '../api/delete-visit-photo';
import { visitReportPath } from '../api/get-visit-report';
import { useUploadVisitPhoto } from '../api/upload-visit-photo';
import { newId } from '../lib/new-id';
import { resizeImage } from '../lib/resize-image';

interface LocalPhoto {
  id: string;
  blob: Blob;
  waiting: boolean;
}

/** Object URLs for the photos kept on the phone, revoked when they leave the list or the screen closes. */
function useObjectUrls(photos: LocalPhoto[]): Map<string, string> {
  const [urls, setUrls] = useState<Map<string, string>>(() => new Map());
  const ids = photos.map((photo) => photo.id).join(',');
  useEffect(() => {
    const map = new Map(photos.map((photo) => [photo.id, URL.createObjectURL(photo.blob)]));
    setUrls(map);
    return () => map.forEach((url) => URL.revokeObjectURL(url));
  }, [ids]); // eslint-disable-line react-hooks/exhaustive-deps
  return urls;
}

/**
 * Up to 6 photos: each is shrunk on the phone, then queued on its own under an id made here (decision 023): sent at once
 * with the network, else kept on the phone as a Blob and sent when it is back, before the complete report. A photo the
 * server does not have yet is shown from its Blob with « en attente »; a sent one from the server.
 */
export function PhotosField({
  missionId,
  title,
  reportId,
  photoIds,
  localPhotos,
  onChange,
  onBusyChange,
  disabled,
}: {
  missionId: string;
  title: string;
  reportId: string;
  photoIds: string[];
  localPhotos: LocalPhoto[];
  onChange: (update: (ids: string[]) => string[]) => void;
  /** While photos are being shrunk (the complete report waits for them). */
  onBusyChange: (busy: boolean) => void;
  disabled: boolean;
}) {
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [preparing, setPreparing] = useState(0);
  const [unseen, setUnseen] = useState<Set<string>>(() => new Set());
  const upload = useUploadVisitPhoto();
  const remove = useDeleteVisitPhoto();
  const urls = useObjectUrls(localPhotos);
  const local = new Map(localPhotos.map((photo) => [photo.id, photo]));
  const room = VISIT_PHOTOS_MAX - photoIds.length - preparing;

  useEffect(() => {
    onBusyChange(preparing > 0);
  }, [preparing, onBusyChange]);

  const pick = async (files: FileList | null) => {
    if (!files || files.length === 0) return;
    const chosen = Array.from(files).slice(0, Math.max(0, room));
    if (files.length > chosen.length) toastError('Trop de photos', new Error(`${VISIT_PHOTOS_MAX} photos au maximum par rapport`));
    setPreparing((n) => n + chosen.length);
    for (const file of chosen) {
      try {
        const blob = await resizeImage(file);
        const photoId = newId();
        onChange((ids) => [...ids, photoId]);
        // Refused (not an image the server reads, lot finished…): it leaves the form, the reason is shown.
        upload.send({ missionId, title, reportId, photoId, file: blob }).catch((error: unknown) => {
          onChange((ids) => ids.filter((id) => id !== photoId));
          toastError('Photo refusée', error);
        });
      } catch (error) {
        toastError('Photo illisible', error);
      } finally {
        setPreparing((n) => n - 1);
      }
    }
    if (inputRef.current) inputRef.current.value = '';
  };

  const drop = (photoId: string) => {
    onChange((ids) => ids.filter((id) => id !== photoId));
    remove.send({ missionId, title, photoId }).catch((error: unknown) => toastError('Photo non retirée', error));
  };

  return (
    <div className="grid gap-3">
      <ul className="grid grid-cols-2 gap-2" aria-label="Photos du rapport">
        {photoIds.map((id, index) => {
          const kept = local.get(id);
          const src = kept ? urls.get(id) : visitReportPath(missionId, `/photos/${id}`);
          return (
            <li key={id} className="relative overflow-hidden rounded-md border bg-muted">
              {src && !unseen.has(id) ? (
                <img
                  src={src}
                  alt={`Photo ${index + 1}`}
                  className={cn('aspect-[4/3] w-full object-cover', kept?.waiting && 'opacity-80')}
                  loading="lazy"
                  onError={() => setUnseen((set) => new Set(set).add(id))}
                />
              ) : (
                <p className="flex aspect-[4/3] items-center justify-center p-2 text-center text-xs text-muted-foreground">
                  {src ? `Photo ${index + 1} enregistrée (affichée avec le réseau)` : `Photo ${index + 1}`}
                </p>
              )}
              {kept?.waiting ? (
                <span className="absolute inset-x-0 bottom-0 bg-card/90 px-2 py-1" role="status">
                  <PendingMark label="en attente d’envoi" />
                </span>
              ) : null}
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
          );
        })}
        {Array.from({ length: preparing }, (_, index) => (
          <li key={`preparing-${index}`} className="flex aspect-[4/3] items-center justify-center rounded-md border bg-muted text-xs text-muted-foreground" role="status">
            Préparation de la photo…
          </li>
        ))}
      </ul>
      {photoIds.length + preparing === 0 ? <p className="text-sm text-muted-foreground">Aucune photo pour l’instant (facultatif, 6 au maximum).</p> : null}
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
            {room > 0 ? `Ajouter des photos (${photoIds.length + preparing}/${VISIT_PHOTOS_MAX})` : `${VISIT_PHOTOS_MAX} photos : maximum atteint`}
          </Button>
        </>
      ) : null}
    </div>
  );
}
