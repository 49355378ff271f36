import { stringify } from 'csv-stringify/sync';
import { checkOpeningHours, isValidSiren, toInternationalPhone } from '@maillon/common/device-rules';
import schemaDae from '../../../data-files/schema-dae-1.0.8.json' with { type: 'json' };
import type { DeviceRow } from './devices.repository';

/**
 * The Géo'DAE file (Table Schema schema-dae 1.0.8, vendored in server/data-files with its provenance): one line per
 * device, the columns and their order read from the vendored schema, booleans oui/non, ISO dates, phones in the
 * international form, comma-separated UTF-8 (no BOM: it is a data file for the national base's import, not a
 * spreadsheet; for the same reason no formula guard, which would corrupt "+33…" phones and negative longitudes).
 * A device missing mandatory data is not written: the check says what it lacks (docs/decisions/024).
 */

export const GEODAE_SCHEMA_VERSION = schemaDae.version;
/** The schema's column names, in its order. */
export const GEODAE_COLUMNS: readonly string[] = schemaDae.fields.map((field) => field.name);

export interface GeodaeOptions {
  /** The maintainer (mnt_rais): the charity (CHARITY_NAME). */
  maintainerName: string;
}

export type GeodaeRow = Record<string, string>;

const yesNo = (value: boolean | null) => (value === null ? '' : value ? 'oui' : 'non');

/** "12 bis rue du Marché" → number "12 bis", street "rue du Marché"; an address without a leading number is all street. */
export function splitStreet(address: string | null): { number: string; street: string } {
  const text = address?.trim() ?? '';
  const match = /^(\d+(?:\s?(?:bis|ter|quater|[A-Z])\b)?)\s*,?\s+(.+)$/i.exec(text);
  return match ? { number: match[1]!, street: match[2]! } : { number: '', street: text };
}

/** A coordinate as the schema's number: the point as decimal separator, at most 7 decimals (about 1 cm). */
const coordinate = (value: number) => String(Math.round(value * 1e7) / 1e7);

/**
 * The device's line, or the list of what it lacks (French labels). Missing and invalid data are both reported:
 * a Géo'DAE import refuses the whole file for one bad line.
 */
export function toGeodaeRow(device: DeviceRow, options: GeodaeOptions): { row: GeodaeRow | null; missing: string[] } {
  const missing: string[] = [];
  const need = (value: string | null | undefined, label: string) => {
    if (!value || !value.trim()) missing.push(label);
    return value?.trim() ?? '';
  };
  const nom = need(device.siteName, 'Nom du site');
  if (device.latitude === null || device.longitude === null) missing.push('Coordonnées (latitude et longitude)');
  const acc = need(device.access, 'Environnement (intérieur ou extérieur)');
  if (device.freeAccess === null) missing.push('Accès libre (oui ou non)');
  const hours = need(device.openingHours, 'Horaires de disponibilité');
  if (hours && checkOpeningHours(hours)) missing.push('Horaires de disponibilité invalides');
  const tel1 = toInternationalPhone(device.sitePhone);
  if (!device.sitePhone) missing.push('Téléphone du site');
  else if (!tel1) missing.push('Téléphone du site invalide');
  const fabRais = need(device.manufacturer, 'Fabricant');
  const modele = need(device.model, 'Modèle');
  const dermnt = need(device.lastMaintenanceOn, 'Date de la dernière maintenance');
  const exptRais = need(device.operatorName, 'Raison sociale de l’exploitant');
  if (!device.operatorSiren) missing.push('SIREN de l’exploitant');
  else if (!isValidSiren(device.operatorSiren)) missing.push('SIREN de l’exploitant invalide');
  const exptTel1 = toInternationalPhone(device.operatorPhone);
  if (!device.operatorPhone) missing.push('Téléphone de l’exploitant');
  else if (!exptTel1) missing.push('Téléphone de l’exploitant invalide');
  const exptEmail = need(device.operatorEmail, 'E-mail de l’exploitant');
  if (device.postalCode && !/^\d{5}$/.test(device.postalCode)) missing.push('Code postal invalide');
  if (missing.length > 0) return { row: null, missing };

  const { number, street } = splitStreet(device.address);
  const row: GeodaeRow = {
    nom,
    lat_coor1: coordinate(device.latitude!),
    long_coor1: coordinate(device.longitude!),
    adr_num: number,
    adr_voie: street,
    com_cp: device.postalCode ?? '',
    com_insee: '',
    com_nom: device.city ?? '',
    acc,
    acc_lib: yesNo(device.freeAccess),
    acc_pcsec: '',
    acc_acc: '',
    acc_etg: device.accessFloor ?? '',
    acc_complt: device.accessDetails ?? '',
    photo1: '',
    photo2: '',
    dispo_horaires: hours,
    disp_complt: device.availabilityDetails ?? '',
    tel1: tel1!,
    tel2: '',
    site_email: device.siteEmail ?? '',
    date_instal: device.installedOn ?? '',
    etat_fonct: device.functionalState,
    fab_siren: '',
    fab_rais: fabRais,
    mnt_siren: '',
    mnt_rais: options.maintainerName,
    modele,
    num_serie: device.serialNumber.trim(),
    id_euro: '',
    lc_ped: yesNo(device.pediatricPadsPresent),
    dtpr_lcped: device.pediatricPadsPresent ? (device.pediatricPadsExpiry ?? '') : '',
    dtpr_lcad: device.adultPadsExpiry ?? '',
    dtpr_bat: device.batteryExpiry ?? '',
    freq_mnt: `Tous les ${device.maintenanceIntervalMonths} mois`,
    dispsurv: '',
    dermnt,
    expt_siren: device.operatorSiren!,
    expt_rais: exptRais,
    expt_tel1: exptTel1!,
    expt_tel2: '',
    expt_email: exptEmail,
  };
  return { row, missing: [] };
}

/** The CSV: the schema's header line, then one line per row, every schema column present (empty when unknown). */
export function buildGeodaeCsv(rows: GeodaeRow[]): string {
  const lines = rows.map((row) =>
    GEODAE_COLUMNS.map((column) => {
      const value = row[column];
      if (value === undefined) throw new Error(`Colonne Géo'DAE sans valeur : ${column}`);
      return value;
    }),
  );
  return stringify([[...GEODAE_COLUMNS], ...lines], { delimiter: ',', record_delimiter: 'windows' });
}
