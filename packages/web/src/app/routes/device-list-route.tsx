import { lazy } from 'react';
import DeviceListPage, {
  type ListDialogs,
} from '../../features/devices/components/list/device-list-page.tsx';
import { loadMapDialog } from '../../features/map/load-map-dialog.ts';

// The list's dialogs that other features own, each a chunk of its own loaded when it is opened
// (the map carries Leaflet).
const LIST_DIALOGS: ListDialogs = {
  Map: lazy(loadMapDialog),
  CreateDevice: lazy(() => import('../../features/create-device/components/create-device-dialog.tsx')),
  BlockQueries: lazy(() => import('../../features/queries/components/block-queries-dialog.tsx')),
  RefDateQueries: lazy(() => import('../../features/queries/components/ref-date-queries-dialog.tsx')),
};

/**
 * /devices and its dialogs: the list (features/devices) with the map, create-device and queries
 * features' dialogs, which the list opens at its sub-paths.
 */
export default function DeviceListRoute() {
  return <DeviceListPage dialogs={LIST_DIALOGS} />;
}
