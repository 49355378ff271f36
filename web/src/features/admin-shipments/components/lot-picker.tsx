import { useState } from 'react';
import type { ShipmentLotOption } from '@maillon/common/schemas/shipments';
import { Combobox } from '@/components/ui/combobox';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { SHIPMENT_LOT_OPTIONS_LIMIT, useShipmentLotOptions } from '../api/get-shipment-lot-options';

interface LotPickerProps {
  /** Given by the surrounding Field (with aria-invalid and aria-describedby). */
  id?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
  /** The chosen lot, whose option carries the recipient the modal shows; null for none. */
  value: ShipmentLotOption | null;
  onChange: (lot: ShipmentLotOption | null) => void;
}

/**
 * Search-as-you-type choice of the lot a parcel is for, among the active lots with a recruited technician: the server
 * answers the first few whose title contains the typed text, never the whole list (2 000 lots at full scale). Nothing
 * is asked before the list opens.
 */
export function LotPicker({ value, onChange, ...field }: LotPickerProps) {
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const search = useDebouncedValue(query.trim(), 250);
  const options = useShipmentLotOptions(search, { enabled: open });
  const found = options.data ?? [];

  return (
    <Combobox
      {...field}
      options={found}
      optionKey={(lot) => lot.batchId}
      optionLabel={(lot) => lot.title}
      // Two lots may share a title: their recipient tells them apart.
      optionDetail={(lot) => `${lot.technicianName} · ${lot.destination}`}
      selected={value}
      onSelect={onChange}
      onQueryChange={setQuery}
      onOpenChange={setOpen}
      listLabel="Lots de mission"
      clearLabel="Effacer le lot"
      placeholder="Choisir un lot"
      loading={options.isFetching || search !== query.trim()}
      emptyText={
        options.isError
          ? 'La recherche a échoué, réessayez'
          : search
            ? 'Aucun lot trouvé'
            : 'Aucun lot en cours n’a de technicien recruté'
      }
      footer={
        found.length >= SHIPMENT_LOT_OPTIONS_LIMIT
          ? `Les ${SHIPMENT_LOT_OPTIONS_LIMIT} premiers lots par titre : précisez la recherche`
          : null
      }
    />
  );
}
