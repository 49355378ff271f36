import { describe, expect, it } from 'vitest';
import { gridClusters, lotColours, LOT_COLOURS, pointInPolygon } from './geometry';

describe('gridClusters', () => {
  const project = (p: { lat: number; lon: number }) => ({ x: p.lon * 100, y: -p.lat * 100 });
  it('groups the markers of one cell at their mean point and keeps lone markers by id', () => {
    const clusters = gridClusters(
      [
        { id: 'a', lat: 0.1, lon: 0.1 },
        { id: 'b', lat: 0.3, lon: 0.2 },
        { id: 'c', lat: 5, lon: 5 },
      ],
      project,
      60,
    );
    expect(clusters).toHaveLength(2);
    const group = clusters.find((c) => c.items.length === 2)!;
    expect(group.items.map((i) => i.id)).toEqual(['a', 'b']);
    expect(group.lat).toBeCloseTo(0.2);
    expect(group.lon).toBeCloseTo(0.15);
    expect(group.key).toMatch(/^cell:/);
    expect(clusters.find((c) => c.items.length === 1)!.key).toBe('c');
  });

  it('handles no marker', () => {
    expect(gridClusters([], project, 60)).toEqual([]);
  });
});

describe('pointInPolygon', () => {
  const square = [
    { x: 0, y: 0 },
    { x: 10, y: 0 },
    { x: 10, y: 10 },
    { x: 0, y: 10 },
  ];
  it('tells inside from outside, also for a concave lasso', () => {
    expect(pointInPolygon({ x: 5, y: 5 }, square)).toBe(true);
    expect(pointInPolygon({ x: 15, y: 5 }, square)).toBe(false);
    const concave = [
      { x: 0, y: 0 },
      { x: 10, y: 0 },
      { x: 10, y: 10 },
      { x: 5, y: 3 },
      { x: 0, y: 10 },
    ];
    expect(pointInPolygon({ x: 5, y: 8 }, concave)).toBe(false);
    expect(pointInPolygon({ x: 5, y: 1 }, concave)).toBe(true);
  });
});

describe('lotColours', () => {
  it('gives each lot a colour in turn', () => {
    const ids = Array.from({ length: LOT_COLOURS.length + 1 }, (_, i) => `lot-${i}`);
    const colours = lotColours(ids);
    expect(colours.get('lot-0')).toBe(LOT_COLOURS[0]);
    expect(colours.get(`lot-${LOT_COLOURS.length}`)).toBe(LOT_COLOURS[0]);
    expect(new Set(ids.slice(0, LOT_COLOURS.length).map((id) => colours.get(id))).size).toBe(LOT_COLOURS.length);
  });
});
