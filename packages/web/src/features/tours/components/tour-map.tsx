import 'leaflet/dist/leaflet.css';
import './tour-map.css';
import { Fragment, useEffect, useMemo } from 'react';
import { divIcon, latLngBounds, type LatLngTuple } from 'leaflet';
import { MapContainer, Marker, Polyline, TileLayer, useMap } from 'react-leaflet';
import { useMapTiles } from '../../../lib/map-tiles.ts';
import { tourColour } from '../lib/tour-colours.ts';

export interface MapTour {
  key: string | number;
  stops: { lat: number | null; lng: number | null; label: string }[];
}

interface TourMapProps {
  depot: { lat: number | null; lng: number | null } | null;
  tours: MapTour[];
  /** Names the map for screen readers (the tables beside it list the same stops). */
  label: string;
}

const located = (
  point: { lat: number | null; lng: number | null } | null,
): point is { lat: number; lng: number } => !!point && point.lat !== null && point.lng !== null;

const numberIcon = (text: string, colour: string) =>
  divIcon({
    className: 'tp-tour-stop',
    html: `<span style="background:${colour}">${text}</span>`,
    iconSize: [26, 26],
    iconAnchor: [13, 13],
  });

const depotIcon = divIcon({
  className: 'tp-tour-depot',
  html: '<span>D</span>',
  iconSize: [28, 28],
  iconAnchor: [14, 14],
});

function FitBounds({ points }: { points: LatLngTuple[] }) {
  const map = useMap();
  useEffect(() => {
    if (points.length === 1) map.setView(points[0]!, 12);
    else if (points.length > 1) map.fitBounds(latLngBounds(points), { padding: [24, 24] });
  }, [map, points]);
  return null;
}

/**
 * The planned tours on the installation's map (Leaflet, loaded with this module only): the depot,
 * each tour's stops numbered in order and a line from the depot through them and back, a colour
 * per tour. Stops without a position are left out (the tables list them).
 */
export default function TourMap({ depot, tours, label }: TourMapProps) {
  const tiles = useMapTiles();
  const points = useMemo(() => {
    const all: LatLngTuple[] = [];
    if (located(depot)) all.push([depot.lat, depot.lng]);
    for (const tour of tours)
      for (const stop of tour.stops) if (located(stop)) all.push([stop.lat, stop.lng]);
    return all;
  }, [depot, tours]);
  return (
    <div role="region" aria-label={label} style={{ height: '100%', width: '100%' }}>
      <MapContainer
        center={[51.1657, 10.4515]}
        zoom={6}
        style={{ height: '100%', width: '100%' }}
        keyboard={false}
      >
        <TileLayer url={tiles.url} attribution={tiles.attribution} />
        <FitBounds points={points} />
        {located(depot) && (
          <Marker position={[depot.lat, depot.lng]} icon={depotIcon} keyboard={false} interactive={false} />
        )}
        {tours.map((tour, index) => {
          const colour = tourColour(index);
          const line: LatLngTuple[] = tour.stops.filter(located).map((stop) => [stop.lat!, stop.lng!]);
          if (located(depot)) {
            line.unshift([depot.lat, depot.lng]);
            line.push([depot.lat, depot.lng]);
          }
          return (
            <Fragment key={tour.key}>
              <Polyline positions={line} pathOptions={{ color: colour, weight: 4, opacity: 0.8 }} />
              {tour.stops.map((stop, position) =>
                located(stop) ? (
                  <Marker
                    key={position}
                    position={[stop.lat, stop.lng]}
                    icon={numberIcon(stop.label, colour)}
                    keyboard={false}
                    interactive={false}
                  />
                ) : null,
              )}
            </Fragment>
          );
        })}
      </MapContainer>
    </div>
  );
}
