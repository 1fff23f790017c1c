import 'leaflet/dist/leaflet.css';
import 'leaflet.markercluster/dist/MarkerCluster.css';
import 'leaflet.markercluster/dist/MarkerCluster.Default.css';
import './device-map.css';
import { MapContainer, TileLayer } from 'react-leaflet';
import type { MapDevice } from '../api/map-devices.ts';
import { MAP_CENTER, MAP_ZOOM } from '../lib/map.ts';
import { ClusterLayer } from './cluster-layer.tsx';

interface DeviceMapProps {
  devices: MapDevice[];
  highlight: number | null;
  tileUrl: string;
  attribution: string;
  popup: (device: MapDevice) => HTMLElement;
}

/** The Leaflet map: tiles of the configured service and the clustered device markers. */
export function DeviceMap({ devices, highlight, tileUrl, attribution, popup }: DeviceMapProps) {
  return (
    <MapContainer center={MAP_CENTER} zoom={MAP_ZOOM} style={{ height: '100%', width: '100%' }}>
      <TileLayer url={tileUrl} attribution={attribution} />
      <ClusterLayer devices={devices} highlight={highlight} popup={popup} />
    </MapContainer>
  );
}
