import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  AVERAGE_SPEED_KMH,
  departmentFromPostalCode,
  estimateLeg,
  estimateRoundTrip,
  haversineMetres,
  lotTripFromHome,
  nearestDistance,
  ROAD_FACTOR,
  estimateMatrix,
  geocode,
  normalizeCommuneName,
  parseAddress,
  planRoundTrip,
  tourLength,
  travelMatrix,
  type GeoPoint,
} from './geo';

function bruteForceBest(matrix: number[][], stops: number[]): number {
  let best = Infinity;
  const permute = (prefix: number[], rest: number[]) => {
    if (rest.length === 0) {
      best = Math.min(best, tourLength(matrix, prefix));
      return;
    }
    for (let i = 0; i < rest.length; i += 1) permute([...prefix, rest[i]!], [...rest.slice(0, i), ...rest.slice(i + 1)]);
  };
  permute([], stops);
  return best;
}

const pointArb = fc.record({ lat: fc.double({ min: 43, max: 50, noNaN: true }), lon: fc.double({ min: -1, max: 7, noNaN: true }) });

describe('normalizeCommuneName', () => {
  it('folds case, accents, œ, hyphens, apostrophes and St/Ste', () => {
    expect(normalizeCommuneName('Saint-Étienne')).toBe('saint etienne');
    expect(normalizeCommuneName('ST ETIENNE')).toBe('saint etienne');
    expect(normalizeCommuneName("L'Haÿ-les-Roses")).toBe('l hay les roses');
    expect(normalizeCommuneName('Sainte-Marie-aux-Mines')).toBe(normalizeCommuneName('STE MARIE AUX MINES'));
    expect(normalizeCommuneName('Œuilly')).toBe('oeuilly');
  });
});

describe('parseAddress', () => {
  it('finds the postal code and city of an address line', () => {
    expect(parseAddress('12 rue du Marché, 75011 Paris')).toEqual({ postalCode: '75011', city: 'Paris' });
    expect(parseAddress('3 place de la Mairie 93200 ST DENIS CEDEX')).toEqual({ postalCode: '93200', city: 'ST DENIS' });
    expect(parseAddress('Lyon 69001')).toEqual({ postalCode: '69001', city: 'Lyon' });
    expect(parseAddress('69001')).toEqual({ postalCode: '69001' });
    expect(parseAddress('sans code')).toEqual({});
  });
});

describe('departmentFromPostalCode', () => {
  it('handles Corsica and overseas', () => {
    expect(departmentFromPostalCode('01400')).toBe('01');
    expect(departmentFromPostalCode('20000')).toBe('2A');
    expect(departmentFromPostalCode('20200')).toBe('2B');
    expect(departmentFromPostalCode('97400')).toBe('974');
    expect(departmentFromPostalCode('7501')).toBeNull();
  });
});

describe('geocode', () => {
  it('uses postal code + city, telling homonyms apart by the postal code', () => {
    expect(geocode({ postalCode: '75001', city: 'Paris' })).toMatchObject({ lat: 48.86255, lon: 2.33642, precision: 'commune' });
    expect(geocode({ postalCode: '93200', city: 'ST DENIS' })).toMatchObject({ lat: 48.92964, lon: 2.35929, precision: 'commune' });
    expect(geocode({ postalCode: '97400', city: 'Saint-Denis' })).toMatchObject({ lat: -20.93303, lon: 55.44698 });
    expect(geocode({ address: '1 cours Napoléon, 20000 Ajaccio' })).toMatchObject({ lat: 41.93472, precision: 'commune' });
  });

  it('prefers known coordinates, then falls back to the postal code, the city and the department centre', () => {
    expect(geocode({ latitude: 45, longitude: 5, postalCode: '75001' })).toMatchObject({ lat: 45, lon: 5, precision: 'coordinates' });
    expect(geocode({ postalCode: '67000', city: 'Ville inconnue' })).toMatchObject({ lat: 48.57126, precision: 'postal-code' });
    expect(geocode({ city: 'Strasbourg' })).toMatchObject({ lat: 48.57126, precision: 'city' });
    const centre = geocode({ postalCode: '29999', city: 'Nulle Part' });
    expect(centre?.precision).toBe('department');
    expect(centre!.lat).toBeGreaterThan(47.7);
    expect(centre!.lat).toBeLessThan(48.8);
    expect(centre!.lon).toBeLessThan(-3.3);
    expect(geocode({ city: 'Nulle Part' })).toBeNull();
    expect(geocode({})).toBeNull();
  });
});

describe('distances', () => {
  it('estimates Paris 75001 → Lyon 69001 within 15 % of the 465 km road distance', () => {
    const paris = geocode({ postalCode: '75001', city: 'Paris' })!;
    const lyon = geocode({ postalCode: '69001', city: 'Lyon' })!;
    const leg = estimateLeg(paris, lyon);
    expect(Math.abs(leg.distance - 465_000) / 465_000).toBeLessThan(0.15);
    // 70 km/h
    expect(leg.duration).toBe(Math.round(leg.distance / (70_000 / 3600)));
  });

  it('falls back to the estimate when OSRM cannot be reached', async () => {
    const points = [
      { lat: 48.86, lon: 2.34 },
      { lat: 45.77, lon: 4.83 },
    ];
    const matrix = await travelMatrix(points, 'http://127.0.0.1:9');
    expect(matrix.source).toBe('estimate');
    expect(matrix.distances[0]![1]).toBe(estimateLeg(points[0]!, points[1]!).distance);
  });
});

describe('planRoundTrip', () => {
  it('keeps every stop exactly once', () => {
    const points: GeoPoint[] = [0, 1, 2, 3, 4, 5].map((k) => ({ lat: 48 + (k % 3) * 0.1, lon: 2 + k * 0.05 }));
    const matrix = estimateMatrix(points).distances;
    const order = planRoundTrip(matrix, [5, 3, 1, 2, 4]);
    expect([...order].sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it('fixes an obviously crossed tour', () => {
    // Home at the origin, four corners of a square visited crosswise.
    const points: GeoPoint[] = [
      { lat: 48.0, lon: 2.0 },
      { lat: 48.1, lon: 2.0 },
      { lat: 48.1, lon: 2.1 },
      { lat: 48.0, lon: 2.1 },
      { lat: 48.05, lon: 2.0 },
    ];
    const matrix = estimateMatrix(points).distances;
    const crossed = [1, 3, 2, 4];
    const order = planRoundTrip(matrix, crossed);
    expect(tourLength(matrix, order)).toBeLessThan(tourLength(matrix, crossed));
  });

  it('is never longer than the current order and within 5 % of the brute-force optimum on 7 points', () => {
    fc.assert(
      fc.property(fc.array(pointArb, { minLength: 8, maxLength: 8 }), fc.array(fc.nat(), { minLength: 7, maxLength: 7 }), (points, keys) => {
        const matrix = estimateMatrix(points).distances;
        const current = [1, 2, 3, 4, 5, 6, 7].sort((a, b) => keys[a - 1]! - keys[b - 1]! || a - b);
        const order = planRoundTrip(matrix, current);
        const length = tourLength(matrix, order);
        expect([...order].sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
        expect(length).toBeLessThanOrEqual(tourLength(matrix, current) + 1e-6);
        expect(length).toBeLessThanOrEqual(bruteForceBest(matrix, current) * 1.05 + 1e-6);
      }),
      { numRuns: 150 },
    );
  });

  it('handles asymmetric road tables and tiny inputs', () => {
    const matrix = [
      [0, 10, 12],
      [11, 0, 5],
      [13, 6, 0],
    ];
    expect(planRoundTrip(matrix, [])).toEqual([]);
    expect(planRoundTrip(matrix, [2])).toEqual([2]);
    const order = planRoundTrip(matrix, [2, 1]);
    expect(tourLength(matrix, order)).toBe(Math.min(tourLength(matrix, [1, 2]), tourLength(matrix, [2, 1])));
  });
});

describe('lot distances (issue 18)', () => {
  const lyon = { lat: 45.77006, lon: 4.82852 };
  const destination = (km: number, bearing: number) => {
    const rad = Math.PI / 180;
    const d = km / 6371.0088;
    const lat1 = lyon.lat * rad;
    const lat2 = Math.asin(Math.sin(lat1) * Math.cos(d) + Math.cos(lat1) * Math.sin(d) * Math.cos(bearing * rad));
    const lon2 = lyon.lon * rad + Math.atan2(Math.sin(bearing * rad) * Math.sin(d) * Math.cos(lat1), Math.cos(d) - Math.sin(lat1) * Math.sin(lat2));
    return { lat: lat2 / rad, lon: lon2 / rad };
  };

  it('nearestDistance picks the closest site; estimateRoundTrip goes there and back on the road estimate', () => {
    const near = destination(10, 90);
    const far = destination(30, 180);
    expect(nearestDistance(lyon, [far, near])).toBe(Math.round(haversineMetres(lyon, near)));
    expect(nearestDistance(lyon, [])).toBeNull();
    expect(estimateRoundTrip(lyon, [])).toBeNull();
    const single = estimateRoundTrip(lyon, [near, near])!;
    expect(single.distance).toBe(Math.round(2 * haversineMetres(lyon, near) * ROAD_FACTOR));
    expect(single.duration).toBe(Math.round(single.distance / ((AVERAGE_SPEED_KMH * 1000) / 3600)));
  });

  it('estimateRoundTrip finds the short way round a ring of sites, also for a large lot', () => {
    const ring = Array.from({ length: 12 }, (_, i) => destination(20, i * 30)).reverse();
    const shuffled = [...ring.filter((_, i) => i % 2 === 0), ...ring.filter((_, i) => i % 2 === 1)];
    const trip = estimateRoundTrip(lyon, shuffled)!;
    // Home → the ring (20 km) → around it (12 chords of 2·20·sin(15°)) → home: about 2·20 + 12·10.35 km.
    const best = (2 * 20 + 12 * 2 * 20 * Math.sin(Math.PI / 12)) * 1000 * ROAD_FACTOR;
    expect(trip.distance).toBeLessThan(best * 1.05);
    const many = Array.from({ length: 300 }, (_, i) => destination(5 + (i % 40), (i * 37) % 360));
    const started = performance.now();
    expect(estimateRoundTrip(lyon, many)!.distance).toBeGreaterThan(0);
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('lotTripFromHome', () => {
  it('gives the nearest great circle and a round trip no longer than the nearest-neighbour tour, duplicates counted once', () => {
    fc.assert(
      fc.property(pointArb, fc.array(pointArb, { minLength: 0, maxLength: 14 }), fc.array(fc.nat(13), { maxLength: 4 }), (home, sites, repeats) => {
        // Some sites twice, as a lot whose missions share an address would list them.
        const all = [...sites, ...repeats.filter((i) => i < sites.length).map((i) => sites[i]!)];
        const trip = lotTripFromHome(home, all.map((p) => p.lat), all.map((p) => p.lon));
        if (sites.length === 0) return trip === null;
        expect(trip!.nearest).toBe(Math.round(Math.min(...all.map((site) => haversineMetres(home, site)))));
        // The nearest-neighbour tour over the distinct sites, computed here on its own: 2-opt only shortens it.
        const left = [...new Map(all.map((p) => [`${p.lat},${p.lon}`, p])).values()];
        let at = home;
        let greedy = 0;
        while (left.length) {
          const next = left.reduce((best, p, i) => (haversineMetres(at, p) < haversineMetres(at, left[best]!) ? i : best), 0);
          greedy += haversineMetres(at, left[next]!);
          at = left.splice(next, 1)[0]!;
        }
        greedy += haversineMetres(at, home);
        expect(trip!.roundTrip.distance).toBeLessThanOrEqual(Math.round(greedy * ROAD_FACTOR) + 1);
        // At least there and back to the nearest site (metres rounded twice: a few metres of slack).
        expect(trip!.roundTrip.distance).toBeGreaterThanOrEqual(2 * trip!.nearest * ROAD_FACTOR - 5);
        return true;
      }),
      { numRuns: 300 },
    );
  });
});
