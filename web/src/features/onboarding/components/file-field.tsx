import { Paperclip, X } from 'lucide-react';
import { UPLOAD_MAX_BYTES } from '@maillon/common/constants';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { inputClass } from '@/components/ui/input';
import { cn } from '@/lib/cn';

export const FILE_TOO_LARGE = 'Le fichier dépasse la taille maximale de 10 Mo';

/** Checks the name and size before sending; the server decides the real type from the bytes. */
export function checkFile(file: File, extensions: readonly string[], typeMessage: string): string | null {
  const extension = file.name.toLowerCase().split('.').pop() ?? '';
  if (!extensions.includes(extension)) return typeMessage;
  if (file.size > UPLOAD_MAX_BYTES) return FILE_TOO_LARGE;
  return null;
}

interface FileFieldProps {
  id: string;
  label: string;
  hint: string;
  extensions: readonly string[];
  typeMessage: string;
  file: File | null;
  error?: string | null | undefined;
  onChange: (file: File | null, error: string | null) => void;
}

/** An optional document of the registration form: native file input (camera or files on phones), removable. */
export function FileField({ id, label, hint, extensions, typeMessage, file, error, onChange }: FileFieldProps) {
  return (
    <div className="grid gap-2">
      <Field id={id} label={label} hint={hint} error={error ?? undefined}>
        <input
          type="file"
          accept={extensions.map((e) => `.${e}`).join(',')}
          className={cn(
            inputClass,
            'h-auto cursor-pointer py-2 file:mr-3 file:rounded file:border-0 file:bg-secondary file:px-3 file:py-1.5 file:text-sm file:font-medium',
          )}
          onChange={(event) => {
            const selected = event.target.files?.[0] ?? null;
            onChange(selected, selected ? checkFile(selected, extensions, typeMessage) : null);
          }}
        />
      </Field>
      {file && !error ? (
        <p className="flex items-center gap-2 text-sm text-muted-foreground">
          <Paperclip className="size-4 shrink-0" aria-hidden="true" />
          <span className="min-w-0 truncate">{file.name}</span>
          <Button
            type="button"
            variant="ghost"
            size="sm"
            className="ml-auto"
            aria-label={`Retirer ${file.name}`}
            onClick={() => {
              const input = document.getElementById(id) as HTMLInputElement | null;
              if (input) input.value = '';
              onChange(null, null);
            }}
          >
            <X aria-hidden="true" />
          </Button>
        </p>
      ) : null}
    </div>
  );
}
