import { useEffect } from 'react';
import { useMap } from 'react-leaflet';
import L from 'leaflet';
import 'leaflet.markercluster';
import iconUrl from 'leaflet/dist/images/marker-icon.png';
import iconRetinaUrl from 'leaflet/dist/images/marker-icon-2x.png';
import shadowUrl from 'leaflet/dist/images/marker-shadow.png';
import type { MapDevice } from '../api/map-devices.ts';
import { HIGHLIGHT_ZOOM } from '../lib/map.ts';

// Leaflet finds its default marker images through CSS paths a bundler breaks: name them here.
// One icon object per kind, shared by every marker.
const base = {
  iconUrl,
  iconRetinaUrl,
  shadowUrl,
  iconSize: [25, 41],
  iconAnchor: [12, 41],
  popupAnchor: [1, -34],
  shadowSize: [41, 41],
} satisfies L.IconOptions;
const ICONS = {
  ok: L.icon(base),
  alarm: L.icon({ ...base, className: 'tp-marker-alarm' }),
  inactive: L.icon({ ...base, className: 'tp-marker-inactive' }),
};

const iconOf = (device: MapDevice) =>
  !device.active ? ICONS.inactive : device.status !== 'ok' ? ICONS.alarm : ICONS.ok;

interface ClusterLayerProps {
  devices: MapDevice[];
  highlight: number | null;
  popup: (device: MapDevice) => HTMLElement;
}

/**
 * All devices as plain Leaflet markers in one cluster group, added in chunks so that even 10,000
 * stay fluid (one React component per marker would not). A highlighted device is zoomed to and
 * its popup opened.
 */
export function ClusterLayer({ devices, highlight, popup }: ClusterLayerProps) {
  const map = useMap();
  useEffect(() => {
    const group = L.markerClusterGroup({ chunkedLoading: true, showCoverageOnHover: false });
    let highlighted: L.Marker | undefined;
    const clustered: L.Marker[] = [];
    for (const device of devices) {
      const marker = L.marker([device.location.lat, device.location.lng], {
        icon: iconOf(device),
        title: device.name,
        alt: device.name,
      });
      marker.bindPopup(() => popup(device));
      if (device.id === highlight) highlighted = marker;
      else clustered.push(marker);
    }
    // Zoomed first, so the clusters are built once, at the zoom they are shown at.
    if (highlighted) map.setView(highlighted.getLatLng(), HIGHLIGHT_ZOOM, { animate: false });
    map.addLayer(group);
    group.addLayers(clustered);
    // The highlighted device stays out of the clusters: at zoom 12 it is always to be seen, with
    // its popup open, however close its neighbours are.
    highlighted?.setZIndexOffset(1000).addTo(map).openPopup();
    return () => {
      highlighted?.remove();
      map.removeLayer(group);
    };
  }, [map, devices, highlight, popup]);
  return null;
}
