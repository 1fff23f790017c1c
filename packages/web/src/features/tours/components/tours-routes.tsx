import { lazy } from 'react';
import { Route, Routes } from 'react-router';

const TourPlanningPage = lazy(() => import('./tour-planning-page.tsx'));
const DepotsPage = lazy(() => import('./depots-page.tsx'));
const TrucksPage = lazy(() => import('./trucks-page.tsx'));

/** /tours/* (dealer): planning, depots and trucks, each page with its dialogs below it. */
export default function ToursRoutes() {
  return (
    <Routes>
      <Route index element={<TourPlanningPage />} />
      <Route path="depots/*" element={<DepotsPage />} />
      <Route path="trucks/*" element={<TrucksPage />} />
    </Routes>
  );
}
