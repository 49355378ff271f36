import path from 'node:path';
import { z } from 'zod';
import { PRODUCT_NAME_DEFAULT } from '@maillon/common/constants';
import { compactIban, ibanProblem, isValidBic } from '@maillon/common/iban';
import { compactSiret, isValidSiret } from '@maillon/common/schemas/profile';

const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

function isTileUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && !/[{}%]/.test(url.host);
  } catch {
    return false;
  }
}

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.string().url().optional(),
  ADMIN_EMAIL: z.string().email().optional(),
  ADMIN_PASSWORD: z.string().min(6).optional(),
  SEED_DEMO: booleanFromEnv.default(true),
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().min(3).default('Maillon <no-reply@maillon.local>'),
  PUBLIC_URL: z.string().url().optional(),
  OSRM_URL: z.string().url().optional(),
  /** Map tile address template (https://tile.example.org/{z}/{x}/{y}.png); its origin joins the CSP's img-src. */
  MAP_TILE_URL: z
    .string()
    .url()
    .refine(isTileUrl, 'adresse http(s) attendue, sans variable dans le nom d’hôte (ex. https://tile.openstreetmap.org/{z}/{x}/{y}.png)')
    .optional(),
  /** Credit shown on the map for MAP_TILE_URL's tiles (e.g. "© IGN – Géoplateforme" or "© OpenStreetMap"). */
  MAP_ATTRIBUTION: z.string().trim().min(1).max(300).optional(),
  INGEST_API_KEY: z.string().min(16).optional(),
  PRODUCT_NAME: z.string().min(1).default(PRODUCT_NAME_DEFAULT),
  CHARITY_NAME: z.string().min(1).default('Association Maillon pour la chaîne de survie'),
  /** The charity's SIRET: the buyer every Factur-X invoice must name (docs/decisions/021). */
  CHARITY_SIRET: z
    .string()
    .transform(compactSiret)
    .refine(isValidSiret, 'SIRET invalide (14 chiffres et clé de Luhn attendus)')
    .optional(),
  /** The account the payout batches are paid from (SEPA debtor): a valid IBAN of the SEPA zone, and its bank's BIC. */
  CHARITY_IBAN: z
    .string()
    .transform(compactIban)
    .superRefine((value, ctx) => {
      const problem = ibanProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .optional(),
  CHARITY_BIC: z
    .string()
    .transform((v) => v.replace(/\s+/g, '').toUpperCase())
    .refine(isValidBic, 'BIC invalide (8 ou 11 caractères, ex. BNPAFRPPXXX)')
    .optional(),
  /** From this day (Europe/Paris) an invoice must be electronic (Factur-X); before it a plain PDF is accepted, flagged. */
  EINVOICE_REQUIRED_FROM: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'date AAAA-MM-JJ attendue')
    .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), 'date invalide')
    .default('2027-09-01'),
  /**
   * Shared object storage for uploaded and generated files: `s3+https://KEY:SECRET@host/bucket[/prefix][?region=…]`.
   * Without it, files live in DATA_DIR/uploads (one machine).
   */
  STORAGE_URL: z
    .string()
    .regex(/^s3\+https?:\/\/[^:@/]+:[^@/]+@[^/]+\/[^?]+/, 'attendu s3+https://CLE:SECRET@hote/bucket (ou s3+http://…)')
    .optional(),
  WEB_DIST_DIR: z.string().optional(),
  /**
   * Parameterised queries as named prepared statements, parsed and planned once per connection (docs/decisions/028).
   * false behind a pooler that cannot keep them (PgBouncer in transaction mode before 1.21).
   */
  PG_PREPARED_STATEMENTS: booleanFromEnv.default(true),
  /** Connections of this instance to PostgreSQL (its pool); several instances share the server's max_connections. */
  PG_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  TRUST_PROXY: booleanFromEnv.default(false),
  /**
   * Reads answered from memory until a table they read changes (docs/decisions/014). Off by default since decision 090:
   * under a working day's writes it kept about one answer in ten and cost every request more than it saved.
   */
  READ_CACHE: booleanFromEnv.default(false),
  /**
   * Sessions kept in memory until the sessions, users or technicians tables change, on any instance (docs/decisions/014,
   * 016, 030): on by default, whatever READ_CACHE says. A read right after a write, or on another instance, finds its
   * session there; `SESSION_CACHE=false` looks every session up (the bench's « sans aucun cache » column).
   */
  SESSION_CACHE: booleanFromEnv.default(true),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Bearer token of GET /metrics on the main port; without it (and without METRICS_PORT) no metric is collected. */
  METRICS_TOKEN: z.string().min(16, 'au moins 16 caractères').optional(),
  /** Serves /metrics without a token on this port of METRICS_HOST (a port only the scraper reaches). */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
}).superRefine((env, ctx) => {
  // The SEPA file names the debtor's account and its bank: one without the other cannot be sent.
  if (env.CHARITY_IBAN && !env.CHARITY_BIC) ctx.addIssue({ code: 'custom', path: ['CHARITY_BIC'], message: 'requis avec CHARITY_IBAN' });
  if (env.CHARITY_BIC && !env.CHARITY_IBAN) ctx.addIssue({ code: 'custom', path: ['CHARITY_IBAN'], message: 'requis avec CHARITY_BIC' });
});

export type Env = z.infer<typeof envSchema>;

export interface Config extends Env {
  /** SESSION_CACHE (kept apart from the variable for the modules that read it). */
  sessionCache: boolean;
  uploadsDir: string;
  secureCookies: boolean;
  metricsEnabled: boolean;
}

/** Parses the environment; every bad variable is reported at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  - ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Configuration invalide :\n${lines.join('\n')}`);
  }
  return withDerived(parsed.data);
}

export function withDerived(env: Env): Config {
  return {
    ...env,
    sessionCache: env.SESSION_CACHE,
    uploadsDir: path.resolve(env.DATA_DIR, 'uploads'),
    secureCookies: env.PUBLIC_URL?.startsWith('https://') ?? false,
    metricsEnabled: Boolean(env.METRICS_TOKEN ?? env.METRICS_PORT),
  };
}

/** Configuration for tests: everything defaulted, overridable. */
export function testConfig(overrides: Partial<Env> = {}): Config {
  return withDerived({ ...envSchema.parse({ NODE_ENV: 'test', LOG_LEVEL: 'silent', SEED_DEMO: 'false' }), ...overrides });
}
