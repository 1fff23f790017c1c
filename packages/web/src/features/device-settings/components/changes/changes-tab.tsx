import { useState } from 'react';
import { CountedChanges } from '../../../../components/changes/counted-changes.tsx';
import type { DeviceDetailView } from '../../../../lib/api/devices.ts';
import { useDeviceChanges } from '../../api/changes.ts';

/**
 * /devices/{id}/settings/changes (VIEW_CONFIGURATION, as the server checks): who changed the
 * device's base data, notes, owner, access entries or configuration, when and from where, each
 * changed field with its old and new value; newest first, a page at a time.
 */
export default function ChangesTab({ device }: { device: DeviceDetailView }) {
  const [page, setPage] = useState(1);
  return <CountedChanges changes={useDeviceChanges(device.id, page)} page={page} onPageChange={setPage} />;
}
