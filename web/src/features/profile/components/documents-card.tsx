import { useRef } from 'react';
import { ExternalLink, FileText, Upload } from 'lucide-react';
import { UPLOAD_MAX_BYTES } from '@maillon/common/constants';
import type { Technician } from '@maillon/common/schemas/technicians';
import { Button, buttonVariants } from '@/components/ui/button';
import { toast, toastError } from '@/components/ui/use-toast';
import { NEEDS_NETWORK, useOnlineStatus } from '@/hooks/use-online-status';
import { cn } from '@/lib/cn';
import { useUploadCv } from '../api/upload-cv';
import { useUploadIdentity } from '../api/upload-identity';
import { ProfileCard } from './profile-card';

const FILE_ERROR_TITLE = 'Erreur lors du téléchargement du fichier';

interface DocumentBlockProps {
  id: string;
  title: string;
  url: string | null;
  openLabel: string;
  emptyLabel: string;
  uploadLabel: string;
  inputLabel: string;
  extensions: readonly string[];
  formats: string;
  successTitle: string;
  uploading: boolean;
  onUpload: (file: File) => Promise<unknown>;
}

/** Current file (opened in a new window through the authenticated download route) and the replace button. */
function DocumentBlock({ id, title, url, openLabel, emptyLabel, uploadLabel, inputLabel, extensions, formats, successTitle, uploading, onUpload }: DocumentBlockProps) {
  const online = useOnlineStatus();
  const input = useRef<HTMLInputElement>(null);

  const upload = async (file: File) => {
    const extension = file.name.toLowerCase().split('.').pop() ?? '';
    if (!extensions.includes(extension)) {
      toast({ title: FILE_ERROR_TITLE, description: `Formats acceptés : ${formats}`, variant: 'destructive' });
      return;
    }
    if (file.size > UPLOAD_MAX_BYTES) {
      toast({ title: FILE_ERROR_TITLE, description: 'Le fichier dépasse la taille maximale de 10 Mo', variant: 'destructive' });
      return;
    }
    try {
      await onUpload(file);
      toast({ title: successTitle, variant: 'success' });
    } catch (error) {
      toastError(FILE_ERROR_TITLE, error);
    }
  };

  return (
    <div className="grid gap-3 rounded-md border p-3" role="group" aria-labelledby={`${id}-title`}>
      <p id={`${id}-title`} className="font-medium">
        {title}
      </p>
      {url ? (
        <a href={url} target="_blank" rel="noopener noreferrer" className={cn(buttonVariants({ variant: 'outline', size: 'sm' }), 'justify-self-start')}>
          <FileText aria-hidden="true" /> {openLabel} <ExternalLink aria-hidden="true" />
        </a>
      ) : (
        <p className="text-sm text-muted-foreground">{emptyLabel}</p>
      )}
      <input
        ref={input}
        id={`${id}-input`}
        type="file"
        className="sr-only"
        aria-label={inputLabel}
        accept={extensions.map((e) => `.${e}`).join(',')}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) void upload(file);
        }}
      />
      <Button type="button" variant="secondary" className="justify-self-start" loading={uploading} disabled={!online} onClick={() => input.current?.click()}>
        {uploading ? null : <Upload aria-hidden="true" />}
        {uploading ? 'Upload en cours...' : uploadLabel}
      </Button>
      {!online ? <p className="text-xs text-muted-foreground">{NEEDS_NETWORK}</p> : null}
      <p className="text-xs text-muted-foreground">{formats}, 10 Mo maximum</p>
    </div>
  );
}

export function DocumentsCard({ technician }: { technician: Technician }) {
  const identity = useUploadIdentity(technician.id);
  const cv = useUploadCv(technician.id);
  return (
    <ProfileCard title="Documents" icon={<FileText aria-hidden="true" />} description="Visibles uniquement par vous et l'administrateur.">
      <DocumentBlock
        id="profile-identity"
        title="Pièce d'identité"
        url={technician.identityDocumentUrl}
        openLabel="Voir la pièce d'identité"
        emptyLabel="Aucune pièce d'identité"
        uploadLabel="Envoyer une pièce d'identité"
        inputLabel="Choisir une pièce d'identité"
        extensions={['png', 'jpg', 'jpeg', 'pdf']}
        formats="PNG, JPG ou PDF"
        successTitle="Pièce d'identité mise à jour"
        uploading={identity.isPending}
        onUpload={(file) => identity.mutateAsync(file)}
      />
      <DocumentBlock
        id="profile-cv"
        title="CV"
        url={technician.cvUrl}
        openLabel="Voir mon CV"
        emptyLabel="Aucun CV"
        uploadLabel="Envoyer un nouveau CV"
        inputLabel="Choisir un CV"
        extensions={['pdf', 'doc', 'docx']}
        formats="PDF, DOC ou DOCX"
        successTitle="CV mis à jour"
        uploading={cv.isPending}
        onUpload={(file) => cv.mutateAsync(file)}
      />
    </ProfileCard>
  );
}
