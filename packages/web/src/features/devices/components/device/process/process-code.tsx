import { useEffect } from 'react';
import { loadOnce, onDemand } from '../../../../../components/on-demand.tsx';
import { usePrefetchProcess } from '../../../api/process.ts';
import { loadProcessChart } from './process-chart-code.tsx';

// The process page's code, loaded on demand (ECharts alone is about 470 kB): the device pages
// start loading it as soon as the process page is the target, alongside the device.
export const loadProcessPage = loadOnce(() => import('./process-page.tsx'));
export const ProcessPage = onDemand(loadProcessPage);

/**
 * Opened at its process page, the curve (megabytes) and the page's code load alongside the device
 * instead of after it: the device pages (app/routes) call this before the device has loaded.
 */
export function usePreloadProcessPage(deviceId: number, enabled: boolean) {
  usePrefetchProcess(deviceId, enabled);
  useEffect(() => {
    // A failure to load shows where the code is rendered (the error boundary), not here.
    if (enabled) Promise.all([loadProcessPage(), loadProcessChart()]).catch(() => {});
  }, [enabled]);
}
