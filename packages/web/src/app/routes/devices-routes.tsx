import { lazy } from 'react';
import { Route, Routes } from 'react-router';

// The list (with its dialog sub-routes) and the device pages are separate chunks.
const DeviceListPage = lazy(() => import('./device-list-route.tsx'));
const DevicePages = lazy(() => import('./device-pages.tsx'));
const DispatchPage = lazy(() => import('../../features/dispatch/components/dispatch-page.tsx'));

/** Sub-paths of the list that are not device ids. */
const LIST_DIALOGS = ['new', 'config', 'map', 'export', 'block-queries', 'ref-date-queries/*'];

/** Everything under /devices: the list and its dialogs, else one device's pages. */
export default function DevicesRoutes() {
  return (
    <Routes>
      <Route index element={<DeviceListPage />} />
      {LIST_DIALOGS.map((path) => (
        <Route key={path} path={path} element={<DeviceListPage />} />
      ))}
      {/* The dispatch view; a path below it is no device id, which DevicePages says. */}
      <Route path="dispatch" element={<DispatchPage />} />
      {/* DevicePages checks the id pattern and sends anything else to /devices. */}
      <Route path=":deviceId/*" element={<DevicePages />} />
    </Routes>
  );
}
