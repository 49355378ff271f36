import { X } from 'lucide-react';
import { DEPARTMENTS_MAX } from '@maillon/common/constants';
import { DEPARTMENTS, formatDepartment } from '@maillon/common/departments';
import { PROFILE_MESSAGES } from '@maillon/common/profile-rules';
import { Field } from '@/components/ui/field';
import { NativeSelect } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';

interface DepartmentPickerProps {
  id: string;
  label: string;
  value: string[];
  onChange: (codes: string[]) => void;
  error?: string | undefined;
  required?: boolean;
  disabled?: boolean;
}

/**
 * 1 to 3 departments: a native select (the best picker on phones) adds one, chips remove one.
 * Choosing a fourth is refused with the "Limite atteinte" toast (spec §5).
 */
export function DepartmentPicker({ id, label, value, onChange, error, required, disabled }: DepartmentPickerProps) {
  const add = (code: string) => {
    if (!code || value.includes(code)) return;
    if (value.length >= DEPARTMENTS_MAX) {
      toast({ title: PROFILE_MESSAGES.departmentsLimitTitle, description: PROFILE_MESSAGES.departmentsLimit, variant: 'destructive' });
      return;
    }
    onChange([...value, code]);
  };

  return (
    <div className="grid gap-2">
      <Field
        id={id}
        label={label}
        required={required}
        error={error}
        hint={`${value.length} / ${DEPARTMENTS_MAX} sélectionné${value.length > 1 ? 's' : ''}`}
      >
        <NativeSelect value="" disabled={disabled} onChange={(event) => add(event.target.value)}>
          <option value="">Ajouter un département…</option>
          {DEPARTMENTS.filter((d) => !value.includes(d.code)).map((d) => (
            <option key={d.code} value={d.code}>
              {formatDepartment(d.code)}
            </option>
          ))}
        </NativeSelect>
      </Field>
      {value.length > 0 ? (
        <ul className="flex flex-wrap gap-2" aria-label="Départements sélectionnés">
          {value.map((code) => (
            <li key={code}>
              <span className="inline-flex h-9 items-center gap-1 rounded-full border border-primary/30 bg-primary-soft pl-3 pr-1 text-sm font-medium">
                {formatDepartment(code)}
                <button
                  type="button"
                  disabled={disabled}
                  onClick={() => onChange(value.filter((c) => c !== code))}
                  className="inline-flex size-7 items-center justify-center rounded-full hover:bg-primary/10 disabled:opacity-50"
                  aria-label={`Retirer ${formatDepartment(code)}`}
                >
                  <X className="size-4" aria-hidden="true" />
                </button>
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
