/**
 * A generic Table Schema (frictionless specs, v1) checker for the tests: it reads a schema's fields and constraints
 * and checks parsed CSV records against them, independently of the code that wrote the file. Covered: the header
 * (names and order), `missingValues`, `required`, the types string (formats email and uri), number, integer, date,
 * boolean (`trueValues` / `falseValues`), `enum`, `pattern` (implicitly anchored, as XML Schema patterns are),
 * `minLength` / `maxLength`, `minimum` / `maximum`, `unique`, and the `french-siren-value` custom check of
 * schema.data.gouv.fr (9 digits and a Luhn key).
 */

interface FieldSchema {
  name: string;
  type: string;
  format?: string;
  trueValues?: string[];
  falseValues?: string[];
  constraints?: {
    required?: boolean;
    unique?: boolean;
    enum?: (string | number)[];
    pattern?: string;
    minLength?: number;
    maxLength?: number;
    minimum?: number;
    maximum?: number;
  };
}

export interface TableSchema {
  fields: FieldSchema[];
  missingValues?: string[];
  custom_checks?: { name: string; params: { column: string } }[];
}

const DEFAULT_TRUE = ['true', 'True', 'TRUE', '1'];
const DEFAULT_FALSE = ['false', 'False', 'FALSE', '0'];
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

function luhnSiren(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false;
  const digits = value.split('').map(Number).reverse();
  const sum = digits.reduce((total, digit, i) => total + (i % 2 === 1 ? (digit * 2 > 9 ? digit * 2 - 9 : digit * 2) : digit), 0);
  return sum % 10 === 0;
}

/** Every violation, as "line N, column: reason" (line 1 is the header). */
export function validateTable(schema: TableSchema, records: string[][]): string[] {
  const errors: string[] = [];
  const [header, ...rows] = records;
  const names = schema.fields.map((field) => field.name);
  if (!header) return ['fichier vide'];
  if (header.join('|') !== names.join('|')) errors.push(`en-tête : ${header.join(',')} ≠ ${names.join(',')}`);
  const missingValues = schema.missingValues ?? [''];
  const seen = new Map<string, Set<string>>();
  rows.forEach((row, index) => {
    const line = index + 2;
    if (row.length !== names.length) errors.push(`ligne ${line} : ${row.length} cellules au lieu de ${names.length}`);
    schema.fields.forEach((field, column) => {
      const value = row[column] ?? '';
      const at = `ligne ${line}, ${field.name}`;
      const c = field.constraints ?? {};
      if (missingValues.includes(value)) {
        if (c.required) errors.push(`${at} : valeur obligatoire manquante`);
        return;
      }
      switch (field.type) {
        case 'number': {
          if (!/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(value)) errors.push(`${at} : nombre invalide « ${value} »`);
          const n = Number(value);
          if (c.minimum !== undefined && n < c.minimum) errors.push(`${at} : ${n} < ${c.minimum}`);
          if (c.maximum !== undefined && n > c.maximum) errors.push(`${at} : ${n} > ${c.maximum}`);
          break;
        }
        case 'integer':
          if (!/^[+-]?\d+$/.test(value)) errors.push(`${at} : entier invalide « ${value} »`);
          break;
        case 'date':
          if (!isCalendarDate(value)) errors.push(`${at} : date invalide « ${value} »`);
          break;
        case 'boolean': {
          const truthy = field.trueValues ?? DEFAULT_TRUE;
          const falsy = field.falseValues ?? DEFAULT_FALSE;
          if (!truthy.includes(value) && !falsy.includes(value)) errors.push(`${at} : booléen invalide « ${value} » (attendu ${[...truthy, ...falsy].join('/')})`);
          break;
        }
        case 'string':
          if (field.format === 'email' && !EMAIL.test(value)) errors.push(`${at} : e-mail invalide « ${value} »`);
          if (field.format === 'uri') {
            try {
              new URL(value);
            } catch {
              errors.push(`${at} : URI invalide « ${value} »`);
            }
          }
          break;
        default:
          errors.push(`${at} : type ${field.type} non géré par le vérificateur`);
      }
      if (c.enum && !c.enum.map(String).includes(value)) errors.push(`${at} : « ${value} » hors de l'énumération`);
      if (c.pattern && !new RegExp(`^(?:${c.pattern})$`).test(value)) errors.push(`${at} : « ${value} » ne suit pas le motif`);
      if (c.minLength !== undefined && [...value].length < c.minLength) errors.push(`${at} : trop court`);
      if (c.maxLength !== undefined && [...value].length > c.maxLength) errors.push(`${at} : trop long`);
      if (c.unique) {
        const values = seen.get(field.name) ?? new Set<string>();
        if (values.has(value)) errors.push(`${at} : « ${value} » en double`);
        values.add(value);
        seen.set(field.name, values);
      }
    });
  });
  for (const check of schema.custom_checks ?? []) {
    if (check.name !== 'french-siren-value') {
      errors.push(`contrôle ${check.name} non géré par le vérificateur`);
      continue;
    }
    const column = names.indexOf(check.params.column);
    rows.forEach((row, index) => {
      const value = row[column] ?? '';
      if (!missingValues.includes(value) && !luhnSiren(value)) errors.push(`ligne ${index + 2}, ${check.params.column} : SIREN invalide « ${value} »`);
    });
  }
  return errors;
}
