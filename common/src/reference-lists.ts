import lists from './reference-lists.json' with { type: 'json' };

export const DEFIBRILLATOR_MODELS: readonly string[] = lists.defibrillatorModels;
export const SHIPMENT_ITEMS: readonly string[] = lists.shipmentItems;
export const MISSION_TAGS: readonly string[] = lists.missionTags;
export const VISIT_TYPES_MODERATION: readonly string[] = lists.visitTypesModeration;
export const VISIT_TYPES_MISSION_EDIT: readonly string[] = lists.visitTypesMissionEdit;
