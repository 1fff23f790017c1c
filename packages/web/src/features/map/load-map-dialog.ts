// Leaflet is big: it loads only when the map is opened. A module of its own, so that the list
// page and the deep-link preload (which imports the list page lazily) share it without a circle.
export const loadMapDialog = () => import('./components/device-map-dialog.tsx');
