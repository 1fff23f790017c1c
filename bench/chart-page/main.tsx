// Bench-only page of bench/browser-charts.ts: mounts the web app's process chart with generated
// series, because the API serves at most 25,000 rows per sensor and the benchmark draws 100,000.
// window.drawProcessChart(points, showTemperature) times one mount until the chart is on screen.
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import '../../packages/web/src/lib/i18n.ts';
import ProcessChart from '../../packages/web/src/features/devices/components/device/process/process-chart.tsx';
import type { ProcessSeries } from '../../packages/web/src/features/devices/api/process.ts';

const DAY = 86_400_000;
const YEAR = 365 * DAY;

/** Two tanks over two years: heating-season use, a refill at about a quarter, noise. */
function generate(points: number, now: number): ProcessSeries[] {
  return [1, 2].map((sequence) => {
    const start = now - 2 * YEAR;
    const step = (2 * YEAR) / points;
    const series: ProcessSeries = {
      sensorId: sequence,
      sequence,
      name: `Tank ${sequence}`,
      type: 'probe',
      unit: 'l',
      times: [],
      values: [],
      percents: [],
      temperatures: [],
    };
    for (let i = 0; i < points; i++) {
      const at = start + i * step;
      const season = Math.cos(((at / DAY - 14) / 365.25) * 2 * Math.PI);
      const used = (i * step * (1 + 0.9 * season)) / (90 * DAY);
      const percent = Math.round((92 - ((used * 70 + sequence * 20) % 70) + Math.random()) * 10) / 10;
      series.times.push(Math.floor(at));
      series.values.push(percent * 60);
      series.percents.push(percent);
      series.temperatures.push(Math.round((10 - 8 * season + Math.random() * 2) * 10) / 10);
    }
    return series;
  });
}

const root = createRoot(document.getElementById('root')!);
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));
const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

declare global {
  interface Window {
    drawProcessChart(
      points: number,
      showTemperature: boolean,
    ): Promise<{ drawnMs: number; paintedMs: number }>;
  }
}

window.drawProcessChart = async (points, showTemperature) => {
  flushSync(() => root.render(null));
  const now = Date.now();
  const series = generate(points, now);
  await nextFrame();
  const started = performance.now();
  flushSync(() =>
    root.render(
      <ProcessChart
        series={series}
        excludedSensors={[]}
        showTemperature={showTemperature}
        from={new Date(now - 3 * YEAR)}
        to={new Date(now)}
      />,
    ),
  );
  // The chart computes its option while rendering and draws synchronously in setOption (line
  // series are never progressive), in the effect that also creates its canvas.
  while (!document.querySelector('[data-testid="process-chart"] canvas')) await nextTask();
  const drawnMs = performance.now() - started;
  await nextFrame();
  return { drawnMs, paintedMs: performance.now() - started };
};
