import { useState } from 'react';
import type { TechnicianOption } from '@maillon/common/schemas/money';
import { Combobox } from '@/components/ui/combobox';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { TECHNICIAN_OPTIONS_LIMIT, useTechnicianOptions, type TechnicianOptionsSource } from './get-technician-options';

interface TechnicianPickerProps {
  /** Given by the surrounding Field (with aria-invalid and aria-describedby). */
  id?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
  /** Technicians with invoices (« Factures & virements », « Relevés ») or with parcels (« Expéditions »). */
  source: TechnicianOptionsSource;
  /** The chosen technician's id, or '' for none. */
  value: string;
  onChange: (technician: TechnicianOption | null) => void;
  placeholder: string;
}

/**
 * Search-as-you-type choice of a technician: the server answers the first few matching names (first name, « Nom
 * Prénom », e-mail or company), never the whole list. Nothing is asked before the list opens.
 */
export function TechnicianPicker({ source, value, onChange, placeholder, ...field }: TechnicianPickerProps) {
  // The option last chosen here gives the input its name; a value cleared by the screen shows the placeholder again.
  const [chosen, setChosen] = useState<TechnicianOption | null>(null);
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const search = useDebouncedValue(query.trim(), 250);
  const options = useTechnicianOptions(source, search, { enabled: open });
  const found = options.data ?? [];

  return (
    <Combobox
      {...field}
      options={found}
      optionKey={(t) => t.id}
      optionLabel={(t) => t.name}
      selected={chosen && chosen.id === value ? chosen : null}
      onSelect={(technician) => {
        setChosen(technician);
        onChange(technician);
      }}
      onQueryChange={setQuery}
      onOpenChange={setOpen}
      listLabel="Suggestions"
      clearLabel="Effacer la sélection"
      placeholder={placeholder}
      loading={options.isFetching || search !== query.trim()}
      emptyText={options.isError ? 'La recherche a échoué, réessayez' : 'Aucun technicien trouvé'}
      footer={found.length >= TECHNICIAN_OPTIONS_LIMIT ? `Les ${TECHNICIAN_OPTIONS_LIMIT} premiers par nom : précisez la recherche` : null}
    />
  );
}
