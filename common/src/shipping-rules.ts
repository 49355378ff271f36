import type { ShipmentStatus } from './enums';

// Shipping helpers without zod: the technician's parcels use them (decision 013); schemas/shipments.ts and
// schemas/parcels.ts re-export them for the server.

/** Mondial Relay's public tracking page for a parcel number (decisions.md §4). */
export function trackingUrl(trackingNumber: string): string {
  return `https://www.mondialrelay.fr/suivi-de-colis/?numeroExpedition=${encodeURIComponent(trackingNumber)}`;
}

/** Statuses a technician may mark as received: Brouillon and Expédié (spec: Expédié, Brouillon, in_transit, shipped). */
export const RECEIVABLE_SHIPMENT_STATUSES: readonly ShipmentStatus[] = ['draft', 'in_transit'];
