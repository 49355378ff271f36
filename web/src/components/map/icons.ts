import L from 'leaflet';
import { formatCount } from '@maillon/common/format';

/**
 * Marker icons, drawn in HTML (no image files): a filled disc for a site at its own coordinates, a hollow ring for a
 * position taken from a postal code (approximate), a numbered disc for a round trip, a house for home, a count for a
 * group of markers. Leaflet makes each marker a keyboard-focusable button; its name is set by the caller.
 */

const SIZE = 22;

function disc({ colour, approximate, selected, label, muted }: { colour: string; approximate: boolean; selected?: boolean; label?: string; muted?: boolean }) {
  const size = label ? 28 : SIZE;
  const style = [
    `width:${size}px`,
    `height:${size}px`,
    `border:3px solid ${muted ? '#9ca3af' : colour}`,
    `background:${approximate ? '#ffffff' : muted ? '#d1d5db' : colour}`,
    `color:${approximate ? (muted ? '#6b7280' : colour) : muted ? '#4b5563' : '#ffffff'}`,
    selected ? 'box-shadow:0 0 0 3px #ffffff,0 0 0 6px #111827' : 'box-shadow:0 1px 3px rgba(0,0,0,.45)',
  ].join(';');
  return L.divIcon({
    className: 'maillon-marker',
    html: `<span class="flex items-center justify-center rounded-full text-xs font-bold leading-none" style="${style}">${label ?? ''}</span>`,
    iconSize: [size, size],
    iconAnchor: [size / 2, size / 2],
    popupAnchor: [0, -size / 2],
  });
}

/** A lot or a mission: filled at its own coordinates, hollow when placed by its postal code. */
export function siteIcon(colour: string, approximate: boolean, selected = false): L.DivIcon {
  return disc({ colour, approximate, selected });
}

/** A device of the round trip with its number; greyed once done. */
export function numberedIcon(number: number, { approximate, done }: { approximate: boolean; done: boolean }): L.DivIcon {
  return disc({ colour: '#1d4ed8', approximate, muted: done, label: String(number) });
}

/** A group of markers: its count, sized with it. */
export function clusterIcon(count: number, colour = '#1e3a8a'): L.DivIcon {
  const size = count < 10 ? 32 : count < 100 ? 38 : count < 1000 ? 46 : 60;
  return L.divIcon({
    className: 'maillon-marker',
    html: `<span class="flex items-center justify-center rounded-full text-sm font-bold text-white" style="width:${size}px;height:${size}px;background:${colour};border:3px solid rgba(255,255,255,.85);box-shadow:0 1px 4px rgba(0,0,0,.5)">${formatCount(count)}</span>`,
    iconSize: [size, size],
    iconAnchor: [size / 2, size / 2],
  });
}

/** The technician's address. */
export function homeIcon(): L.DivIcon {
  return L.divIcon({
    className: 'maillon-marker',
    html: `<span class="flex items-center justify-center rounded-md bg-gray-900 text-white" style="width:28px;height:28px;box-shadow:0 1px 4px rgba(0,0,0,.5)"><svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2.5" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d="M3 10.5 12 3l9 7.5"/><path d="M5 9.5V21h14V9.5"/></svg></span>`,
    iconSize: [28, 28],
    iconAnchor: [14, 14],
  });
}
