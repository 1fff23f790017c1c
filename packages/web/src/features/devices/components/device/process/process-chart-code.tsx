import { loadOnce, onDemand } from '../../../../../components/on-demand.tsx';

// The chart's code (ECharts alone is about 470 kB), loaded on demand: a module apart from the
// page's loader (process-code.tsx), which the page itself would otherwise import in a circle.
export const loadProcessChart = loadOnce(() => import('./process-chart.tsx'));
export const ProcessChart = onDemand(loadProcessChart);
