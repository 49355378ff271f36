import { sql } from 'drizzle-orm';
import type { Db } from '../client';
import { hashPassword } from '../../lib/passwords';
import { approximatePosition, refreshLotGeometry } from '../../lib/positions';
import { sqlLiteral } from '../schema/_columns';

export const SCALE_PASSWORD = 'Bench-Password-2026';
export const SCALE_ADMIN_EMAIL = 'bench-admin@maillon.test';

export interface ScaleSizes {
  technicians: number;
  missions: number;
  /** Missions without a lot (« À trier »), beside the `missions` spread over the lots. */
  unsorted: number;
  lots: number;
  visibleLots: number;
  applications: number;
  invoices: number;
  shipments: number;
  resources: number;
  views: number;
}

export const FULL_SCALE: ScaleSizes = {
  technicians: 5000,
  missions: 100_000,
  // What moderation has turned into missions and the admin has not put in a lot yet (a quarter still drafts).
  unsorted: 2_000,
  lots: 10_000,
  // Every lot visible (the last fifth completed): the nearest-first search works through 8 000 open lots.
  visibleLots: 10_000,
  applications: 50_000,
  invoices: 20_000,
  shipments: 20_000,
  resources: 50,
  views: 100_000,
};

export function scaled(factor: number): ScaleSizes {
  const n = (v: number) => Math.max(1, Math.round(v * factor));
  return {
    technicians: n(FULL_SCALE.technicians),
    missions: n(FULL_SCALE.missions),
    unsorted: n(FULL_SCALE.unsorted),
    lots: n(FULL_SCALE.lots),
    visibleLots: n(FULL_SCALE.visibleLots),
    applications: n(FULL_SCALE.applications),
    invoices: n(FULL_SCALE.invoices),
    shipments: n(FULL_SCALE.shipments),
    resources: FULL_SCALE.resources,
    views: n(FULL_SCALE.views),
  };
}

const DEPARTMENTS_SQL = `(array['01','06','13','31','33','35','38','44','59','67','69','75','76','83','92','93','94','2A','971','974'])`;

/**
 * Where the scale data lives (issue 18): each department of DEPARTMENTS_SQL, in the same order, with its prefecture
 * (postal code, city, position) and how far (degrees of latitude) its lots spread around it.
 */
const PLACES: [postalCode: string, city: string, lat: number, lon: number, spread: number][] = [
  ['01000', 'Bourg-en-Bresse', 46.2052, 5.2255, 0.35],
  ['06000', 'Nice', 43.7102, 7.262, 0.25],
  ['13001', 'Marseille', 43.2965, 5.3698, 0.3],
  ['31000', 'Toulouse', 43.6047, 1.4442, 0.4],
  ['33000', 'Bordeaux', 44.8378, -0.5792, 0.45],
  ['35000', 'Rennes', 48.1173, -1.6778, 0.35],
  ['38000', 'Grenoble', 45.1885, 5.7245, 0.35],
  ['44000', 'Nantes', 47.2184, -1.5536, 0.35],
  ['59000', 'Lille', 50.6292, 3.0573, 0.3],
  ['67000', 'Strasbourg', 48.5734, 7.7521, 0.3],
  ['69001', 'Lyon', 45.764, 4.8357, 0.25],
  ['75011', 'Paris', 48.859, 2.38, 0.04],
  ['76000', 'Rouen', 49.4432, 1.0999, 0.35],
  ['83000', 'Toulon', 43.1242, 5.928, 0.25],
  ['92000', 'Nanterre', 48.8924, 2.2071, 0.06],
  ['93000', 'Bobigny', 48.9075, 2.4393, 0.05],
  ['94000', 'Créteil', 48.7904, 2.4556, 0.05],
  ['20000', 'Ajaccio', 41.9192, 8.7386, 0.15],
  ['97110', 'Pointe-à-Pitre', 16.2411, -61.5331, 0.1],
  ['97400', 'Saint-Denis', -20.8823, 55.4504, 0.12],
];

const DEPARTMENT_CODES = ['01', '06', '13', '31', '33', '35', '38', '44', '59', '67', '69', '75', '76', '83', '92', '93', '94', '2A', '971', '974'];

/** The places as an SQL table `places(k, dept, postal_code, city, lat, lon, spread, approx_lat, approx_lon)`, k = 1…20. */
function placesSql(): string {
  const rows = PLACES.map(([postalCode, city, lat, lon, spread], i) => {
    const approx = approximatePosition({ postalCode, city });
    if (!approx) throw new Error(`Commune introuvable : ${postalCode} ${city}`);
    return `(${i + 1}, ${sqlLiteral(DEPARTMENT_CODES[i]!)}, ${sqlLiteral(postalCode)}, ${sqlLiteral(city)}, ${lat}, ${lon}, ${spread}, ${approx.lat}, ${approx.lon})`;
  });
  return `(values ${rows.join(', ')}) as places(k, dept, postal_code, city, lat, lon, spread, approx_lat, approx_lon)`;
}

/** A reproducible number in [-0.5, 0.5) from an integer and a salt (no random(): the data is the same every time). */
const jitter = (n: string, salt: number) => `((((${n})::bigint * ${7919 + salt * 104_729} + ${salt * 1_299_709}) % 100003) / 100003.0 - 0.5)`;
const MODELS_SQL = `(array['Philips - HeartStart HS1','Zoll - AED Plus','Physio-Control - LIFEPAK CR Plus','HeartSine - samaritan PAD 350P','Cardiac Science - Powerheart G5','Schiller - FRED PA-1','Mindray - BeneHeart C1A','Defibtech - Lifeline VIEW'])`;
const TAGS_SQL = `(array['Maintenance','Installation','Contrôle','Batteries','Électrodes','Signalétique'])`;

/**
 * Fills the database with a platform at scale, set-based (INSERT … SELECT generate_series), in one transaction.
 * Row i of each table is derived from i so the data is reproducible and relations are valid.
 */
export async function seedScale(db: Db, sizes: ScaleSizes, log: (line: string) => void = console.log): Promise<void> {
  const hash = await hashPassword(SCALE_PASSWORD);
  const step = async (label: string, query: ReturnType<typeof sql>) => {
    const started = Date.now();
    await db.execute(query);
    log(`  ${label} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  };
  const t = sizes;
  const perLot = Math.max(1, Math.floor(t.missions / t.lots));
  await step('admin', sql`insert into users (email, password_hash, role) values (${SCALE_ADMIN_EMAIL}, ${hash}, 'admin') on conflict do nothing`);
  await step(
    `${t.technicians} technicians`,
    sql.raw(`
      with u as (
        insert into users (email, password_hash, role)
        select 'tech' || i || '@bench.maillon.test', '${hash}', 'technician' from generate_series(1, ${t.technicians}) i
        returning id, email
      )
      insert into technicians (user_id, first_name, last_name, email, phone, address, city, postal_code, departments, status,
        formation_completed, formation_status, iban, total_earnings_cents, completed_missions, latitude, longitude)
      select u.id, 'Prénom' || n, 'Nom' || n, u.email, '06 00 00 00 00', n || ' rue de la Gare', places.city, places.postal_code,
        array[${DEPARTMENTS_SQL}[1 + n % 20]], case when n % 10 = 0 then 'pending' else 'active' end,
        n % 4 <> 0, case when n % 4 <> 0 then 'Formation complétée' else 'Formation incomplète' end,
        'FR7630006000011234567890' || lpad((n % 1000)::text, 3, '0'), (n % 50) * 10000, n % 7,
        places.lat + places.spread * ${jitter('n', 1)}, places.lon + places.spread * 1.4 * ${jitter('n', 2)}
      from (select id, email, substring(email from 5 for position('@' in email) - 5)::int as n from u) u
      join ${placesSql()} on places.k = 1 + n % 20`),
  );
  await step(
    `${t.lots} lots (${t.visibleLots} visible)`,
    sql.raw(`
      insert into mission_batches (title, description, price_cents, departments, tags, deadline, visibility, status,
        defibrillators_sum, defibrillators_done, amount_per_defib_cents, created_at)
      select 'Lot ' || i || ' - ' || ${DEPARTMENTS_SQL}[1 + i % 20], 'Lot de missions de maintenance n°' || i,
        (5 + i % 20) * 12000, array[${DEPARTMENTS_SQL}[1 + i % 20]], array[${TAGS_SQL}[1 + i % 6]],
        now() + ((i % 90) || ' days')::interval, case when i <= ${t.visibleLots} then 'visible' else 'invisible' end,
        case when i > ${t.lots} * 0.8 then 'completed' else 'active' end, ${perLot},
        -- A completed lot had every one of its visits done (its missions are completed below).
        case when i > ${t.lots} * 0.8 then ${perLot} else 0 end,
        ((5 + i % 20) * 12000) / ${perLot},
        -- One creation time each, as real rows have (a shared one would make every « most recent » order a full sort).
        now() - i * interval '1 minute'
      from generate_series(1, ${t.lots}) i`),
  );
  // Each mission is written once, with its device (Parc DAE): one device per mission (its serial, site and position),
  // written by the same statement just before. Linking them by an update afterwards rewrote every mission into new
  // pages and left the table's first half empty after the vacuum, which a scan from its first page then read through
  // (decision 080).
  await step(
    `${t.missions} missions in lots (those of completed lots completed), ${t.unsorted} to sort, and their devices`,
    sql.raw(`
      with lots as (
        select id, status, departments[1] as dept, row_number() over (order by created_at, id) as n
        from mission_batches where not is_system
      ),
      sites as (
        -- Each lot around a point of its department; its devices within about 10 km of it; one in ten known by its
        -- postal code only (approximate position).
        select i, lots.id as batch_id, lots.status as lot_status, places.*,
          'SN-B-' || i as serial_number, 'Client ' || i as client_name, ${MODELS_SQL}[1 + i % 8] as model,
          i || ' rue de la République, ' || places.postal_code || ' ' || places.city as location,
          case when i % 10 = 0 then null
            else places.lat + places.spread * ${jitter('lots.n', 3)} + 0.09 * ${jitter('i', 4)} end as site_lat,
          case when i % 10 = 0 then null
            else places.lon + places.spread * 1.4 * ${jitter('lots.n', 5)} + 0.12 * ${jitter('i', 6)} end as site_lon,
          now() - i * interval '10 seconds' as created_at,
          -- The device's rank, oldest mission first: its state and expiry dates are spread by it.
          ${t.missions + t.unsorted} + 1 - i as n
        from generate_series(1, ${t.missions + t.unsorted}) i
        left join lots on i <= ${t.missions} and lots.n = 1 + (i % ${t.lots})
        join ${placesSql()} on places.dept = coalesce(lots.dept, ${DEPARTMENTS_SQL}[1 + i % 20])
      ),
      made as (
        -- States and expiry dates spread so that the registry's filters and its attention badge have work at scale.
        insert into devices (serial_number, serial_key, manufacturer, model, site_name, address, postal_code, city, latitude,
          longitude, access, free_access, functional_state, battery_expiry, adult_pads_expiry, pediatric_pads_present,
          last_maintenance_on, maintenance_interval_months, next_maintenance_due, created_at)
        select serial_number, upper(regexp_replace(serial_number, '[^A-Za-z0-9]', '', 'g')),
          split_part(model, ' - ', 1), split_part(model, ' - ', 2), client_name, location,
          postal_code, city, site_lat, site_lon, case when n % 3 = 0 then 'Intérieur' else 'Extérieur' end, n % 3 <> 0,
          case when n % 50 = 0 then 'Hors service' when n % 97 = 0 then 'Supprimé définitivement' when n % 7 = 0 then 'Inconnu'
            else 'En fonctionnement' end,
          current_date + (n % 800 - 60)::int, current_date + ((n * 7) % 900 - 45)::int, n % 4 = 0,
          current_date - (n % 365)::int, 12, current_date - (n % 365)::int + 365, created_at
        from sites order by n
        returning id, serial_number
      )
      insert into missions (title, description, location, department, budget_cents, tags, status, batch_id, serial_number,
        client_name, defibrillator_model, visit_type, tel_site, email_site, completion_link, postal_code, city, latitude, longitude,
        approx_latitude, approx_longitude, device_id, created_at)
      select 'Maintenance - Site ' || i, 'Visite de maintenance', location,
        dept, 15000, array['Maintenance'],
        case when lot_status = 'completed' then 'completed' when batch_id is null and i % 4 = 0 then 'draft' else 'active' end, batch_id,
        sites.serial_number, client_name, model, 'Maintenance', '01 00 00 00 00', 'site' || i || '@exemple.fr',
        'https://formulaires.maillon.fr/c?s=' || sites.serial_number, postal_code, city, site_lat, site_lon, approx_lat, approx_lon,
        made.id, created_at
      from sites join made on made.serial_number = sites.serial_number
      order by i`),
  );
  const started = Date.now();
  await refreshLotGeometry(db, sql`true`);
  log(`  geometry of ${t.lots} lots (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  await step(
    `${t.applications} applications`,
    sql.raw(`
      with lots as (select id, row_number() over (order by created_at, id) as n from mission_batches where not is_system),
      techs as (select id, row_number() over (order by created_at, id) as n from technicians)
      insert into applications (batch_id, technician_id, status, applied_at)
      select lots.id, techs.id,
        case when i % 5 = 0 and (i / 5) < ${Math.floor(t.lots * 0.4)} then 'Recruté' when i % 11 = 0 then 'Refusé' else 'En attente' end,
        now() - ((i % 60) || ' days')::interval
      from generate_series(0, ${t.applications - 1}) i
      join lots on lots.n = 1 + (i / 5) % ${t.lots}
      join techs on techs.n = 1 + (i + (i / 5) * 7) % ${t.technicians}
      on conflict do nothing`),
  );
  // The recruits' field work, as on a working day: two visits in three planned (3 to 42 days ahead, none done, so the
  // lots' kept figures stay true), the site invited for one in three and confirmed for half of those, and on each lot a
  // message from the admin and the technician's comment. The field-work screen reads them (decision 059).
  const recruitsWork = `with work as (
      select m.id as mission_id, a.technician_id, a.batch_id, m.email_site,
        row_number() over (partition by m.batch_id order by m.created_at, m.id) as k
      from applications a join missions m on m.batch_id = a.batch_id where a.status = 'Recruté')`;
  const plannedDay = `date_trunc('day', now()) + ((3 + (k * 7) % 40) || ' days')::interval`;
  await step(
    'visits planned on the recruited lots',
    sql.raw(`${recruitsWork}
      insert into technician_mission_data (mission_id, technician_id, planned_visit_date)
      select mission_id, technician_id, ${plannedDay} + interval '9 hours' from work where k % 3 <> 0`),
  );
  await step(
    'sites invited',
    sql.raw(`${recruitsWork}
      insert into visit_appointments (mission_id, technician_id, uid, sequence, site_email, invited_at, invited_date, response, responded_at)
      select mission_id, technician_id, 'seed-' || mission_id, 1, email_site, now() - interval '2 days', (${plannedDay})::date,
        case when k % 2 = 0 then 'confirmed' end, case when k % 2 = 0 then now() - interval '1 day' end
      from work where k % 3 = 1`),
  );
  await step(
    'messages on the recruited lots',
    sql.raw(`${recruitsWork}
      insert into comments (batch_id, technician_id, author_role, content)
      select batch_id, technician_id, role, case role when 'admin' then 'Pensez aux électrodes de rechange, merci.'
        else 'Accès par le parking, badge à l’accueil.' end
      from (select distinct batch_id, technician_id from work) lots cross join (values ('admin'), ('technician')) roles(role)`),
  );
  await step(
    `${t.invoices} invoices and transfers`,
    sql.raw(`
      with picked as (
        select technician_id, batch_id, row_number() over (order by applied_at, id) as n from applications limit ${t.invoices}
      ), inv as (
        insert into invoices (technician_id, batch_id, amount_cents, status, mission_title, initial_amount_cents,
          validated_amount_cents, batch_price_cents, progression, reference)
        select p.technician_id, p.batch_id, 60000,
          (array['Mission à terminer','Facture à soumettre','Facture envoyée','Terminé'])[1 + p.n % 4],
          'Lot bench ' || p.n, 60000, 30000 + (p.n % 10) * 3000, 60000, (p.n % 10) || '/10', 'FAC-B-' || p.n
        from picked p
        on conflict do nothing
        returning id, technician_id, batch_id, validated_amount_cents, status, reference
      )
      insert into transfers (batch_id, technician_id, invoice_id, status, invoice_ref, bank_account_last4, amount_cents, transfer_date)
      select batch_id, technician_id, id, case when status = 'Terminé' then 'Effectué' else 'Enregistré' end, reference, '0189',
        validated_amount_cents, now() from inv`),
  );
  await step(
    `${t.shipments} shipments`,
    sql.raw(`
      with techs as (select id, row_number() over (order by created_at, id) as n from technicians),
      lots as (select id, title, row_number() over (order by created_at, id) as n from mission_batches where not is_system)
      insert into shipments (batch_id, technician_id, tracking_number, status, shipped_date, destination,
        destination_postal_code, content, mission_title)
      select lots.id, techs.id, 'MR' || (10000000 + i), (array['draft','in_transit','delivered','cancelled'])[1 + i % 4],
        now() - ((i % 30) || ' days')::interval, 'Relais Paris Centre', '75011', 'Batterie, électrodes', lots.title
      from generate_series(1, ${t.shipments}) i
      join techs on techs.n = 1 + i % ${t.technicians}
      join lots on lots.n = 1 + i % ${t.lots}`),
  );
  await step(
    `${t.resources} learning resources`,
    sql.raw(`
      insert into learning_resources (title, description, type, url, duration)
      select 'Module ' || i, 'Formation n°' || i, (array['document','video','interactive','pdf','other'])[1 + i % 5],
        'https://maillon.fr/formation/' || i, 5 + i % 20
      from generate_series(1, ${t.resources}) i`),
  );
  await step(
    `${t.views} resource views`,
    sql.raw(`
      with r as (select id, row_number() over (order by created_at, id) as n from learning_resources),
      techs as (select id, row_number() over (order by created_at, id) as n from technicians)
      insert into resource_views (resource_id, technician_id)
      select r.id, techs.id from generate_series(0, ${t.views - 1}) i
      join r on r.n = 1 + i % ${t.resources}
      join techs on techs.n = 1 + (i / ${t.resources}) % ${t.technicians}
      on conflict do nothing`),
  );
  await step('analyze', sql`analyze`);
}
